/**
 * The person's trust answers for project config files: `$XDG_STATE_HOME/codey/trusted-projects.json`
 * (mode 0600), `{ "<absolute path of the project file>": "<sha256 of its settings>" }`. A project file
 * whose settings would widen what codey may do (allow rules, a web provider, …) is applied in full
 * only while the file's settings are exactly those the person trusted; any change asks again.
 */
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write';
import { readJsonObject } from '../util/json-file';
import { stateDir } from './paths';

type Env = Record<string, string | undefined>;

/** The trust file of `env`'s state folder. */
export const trustFile = (env: Env): string => join(stateDir(env), 'trusted-projects.json');

/** The digest a trust answer is tied to: SHA-256 (hex) of the file's settings as parsed. */
export function settingsDigest(data: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(data)).digest('hex');
}

async function readTrust(env: Env): Promise<Record<string, unknown>> {
  try {
    return (await readJsonObject(trustFile(env))) ?? {};
  } catch {
    return {}; // an unreadable or damaged trust file trusts nothing
  }
}

/** Whether the person trusted `file` with exactly the settings of `digest`. Never throws. */
export async function isTrusted(env: Env, file: string, digest: string): Promise<boolean> {
  return (await readTrust(env))[file] === digest;
}

/**
 * Remember that the person trusts `file` with the settings of `digest` (replacing an older answer).
 * @throws the file system's error when the state folder cannot be written.
 */
export async function recordTrust(env: Env, file: string, digest: string): Promise<void> {
  const all = { ...(await readTrust(env)), [file]: digest };
  const path = trustFile(env);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFileAtomic(path, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
}

/** Every remembered answer: file → digest. Never throws (a damaged trust file lists nothing). */
export async function trustAnswers(env: Env): Promise<Record<string, string>> {
  const all = await readTrust(env);
  return Object.fromEntries(
    Object.entries(all).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

/**
 * Forget the answers for `files`; returns those that had one.
 * @throws the file system's error when the trust file cannot be written.
 */
export async function forgetTrust(env: Env, files: readonly string[]): Promise<string[]> {
  const all = await readTrust(env);
  const gone = files.filter((f) => f in all);
  if (gone.length === 0) return [];
  for (const f of gone) delete all[f];
  await writeFileAtomic(trustFile(env), `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  return gone;
}

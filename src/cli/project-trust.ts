/**
 * Settings a project file holds back until the person trusts it (src/config/trust.ts): asked in the
 * terminal before the interactive session starts, never in `-p` (which says how to trust instead).
 */
import type { HeldSettings } from '../config/resolve';
import { isTrusted, recordTrust } from '../config/trust';
import { askYesNo } from './ask';

type Env = Record<string, string | undefined>;

/** Whether the person already trusts `held`'s file with exactly its present settings. */
export function trustedAlready(held: HeldSettings, env: Env): Promise<boolean> {
  return isTrusted(env, held.file, held.digest);
}

/** The question: what the file asks for, what trusting means, and the default (no). */
export function trustQuestion(held: HeldSettings): string {
  return [
    `codey: ${held.files.join(' and ')} ask${held.files.length === 1 ? 's' : ''} for settings that give this repository more than your own config does:`,
    ...held.values.map((v) => `  ${v}`),
    `Trust ${held.files.length === 1 ? 'this file' : 'these files'}? Their settings then apply here (you are asked again whenever they change). [y/N] `,
  ].join('\n');
}

/** After a no: what stays ignored, and that the question comes again. */
export function notTrusted(held: HeldSettings): string {
  const keys = [...new Set(held.values.map((v) => v.slice(0, v.indexOf(':'))))].join(', ');
  return `codey: not trusted: ${held.files.join(' and ')}'s ${keys} ignored for this session; codey asks again next time`;
}

/** For `-p`: the held settings are ignored; this line says how to accept them. */
export function trustHint(held: HeldSettings): string {
  return `codey: to use the settings of ${held.files.join(' and ')} above, run \`codey trust grant\` here (or run codey here once and answer yes when it asks)`;
}

/**
 * Ask whether to trust `held`'s file; a yes is remembered for exactly these settings.
 * @returns true when the person said yes and the answer was stored.
 */
export async function askTrust(held: HeldSettings, env: Env, warn: (line: string) => void): Promise<boolean> {
  if (!(await askYesNo(trustQuestion(held)))) return false;
  try {
    await recordTrust(env, held.file, held.digest);
    return true;
  } catch (err) {
    warn(
      `codey: could not remember the answer (${(err as Error).message}); the file's settings apply for this run only`,
    );
    return true;
  }
}

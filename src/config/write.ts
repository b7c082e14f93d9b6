/**
 * Writing the user config file (the setup wizard's output). The file may hold an API key, so it is
 * always left with mode 0600 and its folder is created 0700. The write is atomic (src/util/atomic-write),
 * so a crash leaves the old file or the new one, never half of either.
 */
import { mkdir, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write';
import { ConfigError } from './errors';
import { fileSchema } from './schema';
import { readSettingsFile } from './settings-file';

/** Permission bits of the user config file: owner read/write only (it may hold `api_key`). */
const USER_FILE_MODE = 0o600;
/** Permission bits of a config folder the writer creates. */
const USER_DIR_MODE = 0o700;

type Raw = Record<string, unknown>;

/** The JSON object in `file`, `{}` when there is no file; `shown` is the name messages give it. */
async function readObject(file: string, shown: string): Promise<Raw> {
  const then = 'it was left unchanged. Fix the file or remove it, then run `codey setup` again';
  return (await readSettingsFile(file, { shown, then })) ?? {};
}

/**
 * The user config file's JSON object, for the wizard's `existing`: `{}` when there is no file.
 * @throws {@link ConfigError} naming `path` when the file cannot be read, is not valid JSON or is not an
 *   object.
 */
export async function readUserConfig(path: string): Promise<Record<string, unknown>> {
  return readObject(path, path);
}

/**
 * Merge `values` into the JSON object in the user config file at `path` and write it back.
 *
 * Keys not in `values` are kept as they are (unknown keys too); a key whose value is `undefined` is
 * removed. The merged object must pass `fileSchema` (src/config/schema.ts), else nothing is written.
 * The parent folder is created (mode 0700) when missing. The file ends up with mode 0600 whatever its
 * mode was, written atomically (temporary file + rename in the same folder). When `path` is a symlink,
 * the file it points to is replaced and the link is kept.
 *
 * @param path The user config file, e.g. `userConfigFile(env)`.
 * @param values Settings in file form (snake_case keys, JSON values).
 * @throws {@link ConfigError} naming `path` when the existing file cannot be read, is not valid JSON or
 *   not an object (it is never overwritten then), or when the merged object fails the schema; the
 *   underlying fs error (EACCES, ENOSPC…) when the folder or the file cannot be written.
 */
export async function writeUserConfig(path: string, values: Record<string, unknown>): Promise<void> {
  const target = await realpath(path).catch(() => path);
  const merged: Raw = { ...(await readObject(target, path)) };
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  }

  const parsed = fileSchema.safeParse(merged);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`)
      .join('; ');
    throw new ConfigError(
      `not writing ${path}: ${problems}. Fix or remove that setting in the file, then try again`,
      path,
    );
  }

  const folder = dirname(target);
  await mkdir(folder, { recursive: true, mode: USER_DIR_MODE });
  // Write the merged object, not the parsed one: parsing would drop unknown keys.
  await writeFileAtomic(target, `${JSON.stringify(merged, null, 2)}\n`, { mode: USER_FILE_MODE });
}

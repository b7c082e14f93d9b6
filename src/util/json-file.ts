import { readFile } from 'node:fs/promises';

/** Why {@link readJsonObject} could not give an object; `message` is the underlying fs or parse error. */
export class JsonFileError extends Error {
  override name = 'JsonFileError';
  constructor(
    message: string,
    /** `read`: the file exists but cannot be read; `syntax`: not valid JSON; `shape`: not an object. */
    readonly kind: 'read' | 'syntax' | 'shape',
    /** For `shape`: what the file holds instead (`an array`, `null`, `a string`…). */
    readonly found?: string,
    /**
     * For `syntax`: the file's text, so the caller can place the error without quoting it
     * (JSON.parse's own `message` quotes the text, which may hold a secret).
     */
    readonly text?: string,
  ) {
    super(message);
  }
}

/** `file`'s text, `undefined` when there is no file; any other failure is a `read` {@link JsonFileError}. */
async function fileText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new JsonFileError((err as Error).message, 'read');
  }
}

/**
 * The JSON object in `file` (a config file), or `undefined` when there is no file. `readText` reads
 * the file instead of `readFile` (a project file read inside its folder): `undefined` from it is no
 * file, and what it throws passes through.
 * @throws {@link JsonFileError} when the file cannot be read, is not valid JSON or holds something
 *   other than an object; callers turn it into a message that says what to do.
 */
export async function readJsonObject(
  file: string,
  readText: (file: string) => Promise<string | undefined> = fileText,
): Promise<Record<string, unknown> | undefined> {
  const text = await readText(file);
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new JsonFileError((err as Error).message, 'syntax', undefined, text);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const found = Array.isArray(data) ? 'an array' : data === null ? 'null' : `a ${typeof data}`;
    throw new JsonFileError(`holds ${found}`, 'shape', found);
  }
  return data as Record<string, unknown>;
}

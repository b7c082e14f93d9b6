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

/**
 * The JSON object in `file` (a config file), or `undefined` when there is no file.
 * @throws {@link JsonFileError} when the file cannot be read, is not valid JSON or holds something
 *   other than an object; callers turn it into a message that says what to do.
 */
export async function readJsonObject(file: string): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new JsonFileError((err as Error).message, 'read');
  }
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

import { JsonFileError, readJsonObject } from '../util/json-file';
import { parseErrorDetail } from './config-text';
import { ConfigError } from './errors';

/** What the person is told to do about a settings file that is wrong, unless the caller says otherwise. */
const FIX_SETTINGS_FILE = 'fix the file or remove it, then run codey again';

export interface SettingsFileOptions {
  /** What to do about a wrong file, after the reason; default {@link FIX_SETTINGS_FILE}. */
  then?: string;
  /** The name the message gives the file (the link, when `file` is where it points); default `file`. */
  shown?: string;
  /**
   * Reads the file's text instead of `readFile` (a project file, read only inside its folder):
   * `undefined` is no file, and what it throws passes through.
   */
  readText?: (file: string) => Promise<string | undefined>;
}

/**
 * The JSON object of a settings file (codey's user config, Claude Code's settings files), or
 * `undefined` when there is no file: the one reader of them, so each says what is wrong the same way.
 * @throws {@link ConfigError} naming the file when it cannot be read (`cannot read F: EACCES…`), is
 *   not valid JSON (`F is not valid JSON (line L, column C: …)`: the place, never the file's text)
 *   or holds something other than an object (`F holds an array, not an object of settings`), each
 *   followed by what to do.
 */
export async function readSettingsFile(
  file: string,
  options: SettingsFileOptions = {},
): Promise<Record<string, unknown> | undefined> {
  const { then = FIX_SETTINGS_FILE, shown = file } = options;
  try {
    return await readJsonObject(file, options.readText);
  } catch (err) {
    if (!(err instanceof JsonFileError)) throw err;
    const why =
      err.kind === 'read'
        ? `cannot read ${shown}: ${err.message}`
        : err.kind === 'syntax'
          ? // JSON.parse's own message quotes the file's text: only the place is said.
            `${shown} is not valid JSON (${parseErrorDetail(err.text ?? '', err, true)})`
          : `${shown} holds ${err.found}, not an object of settings (write it as { "key": value, … })`;
    throw new ConfigError(`${why}; ${then}`, shown);
  }
}

import { basename, extname } from 'node:path';
import { parseErrorDetail, readProjectConfigText } from './config-text';
import { ConfigError } from './errors';
import { projectConfigPlaces } from './project-places';

type Raw = Record<string, unknown>;

/** The project config codey read, and a notice for each program-form config it left alone. */
export interface ProjectFile {
  /** The settings object, or undefined when no data-form config was found. */
  found?: { data: Raw; file: string };
  /** One line per JavaScript or TypeScript config that was ignored, naming it. */
  notices: string[];
}

/** Parse one JSON or YAML form with cosmiconfig's own parsers (parse-json, js-yaml). */
async function parse(file: string, text: string): Promise<unknown> {
  const { defaultLoaders } = await import('cosmiconfig');
  const ext = extname(file);
  const loader = ext === '.json' ? defaultLoaders['.json'] : defaultLoaders['.yaml'];
  const value: unknown = await loader(file, text);
  if (basename(file) !== 'package.json') return value;
  return value !== null && typeof value === 'object' ? (value as Raw).codey : undefined;
}

/**
 * Find and read the project config from `cwd`: the first non-empty JSON or YAML form, folder by
 * folder (search places in src/config/project-places.ts). A JavaScript or TypeScript form is never
 * loaded, since loading it would run a cloned repository's code inside codey; each one in the folders
 * searched gets a notice instead.
 * @throws {@link ConfigError} when the chosen file cannot be read or parsed, or is not an object, or
 *   is refused by {@link readProjectConfigText} (a link out of its folder, not a regular file, over 1 MiB).
 *   The message gives the file, line and column, never the text.
 */
export async function readProjectFile(cwd: string): Promise<ProjectFile> {
  const notices: string[] = [];
  for (const { dir, data, code } of projectConfigPlaces(cwd)) {
    for (const file of code)
      notices.push(
        `codey: ${file} ignored: a project config must be data (JSON or YAML), codey never runs one written in JavaScript or TypeScript; move its settings to .codeyrc.json`,
      );
    for (const file of data) {
      let value: unknown;
      let text: string;
      try {
        text = await readProjectConfigText(file, dir);
      } catch (err) {
        if (err instanceof ConfigError) throw err;
        throw new ConfigError(`cannot read the project config ${file}; check its permissions`, file);
      }
      try {
        value = text.trim() === '' ? undefined : await parse(file, text);
      } catch (err) {
        // The parser's own message quotes the file's text, which may be anything: never shown.
        const detail = parseErrorDetail(text, err, extname(file) === '.json');
        throw new ConfigError(
          `cannot parse the project config ${file}: ${detail}; fix the file, then run codey again`,
          file,
        );
      }
      if (value === undefined || value === null) continue;
      if (typeof value !== 'object' || Array.isArray(value))
        throw new ConfigError(`${file} must hold an object of settings`, file);
      return { found: { data: value as Raw, file }, notices };
    }
  }
  return { notices };
}

import { readFileSync, statSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';

/**
 * cosmiconfig 9's default search places for the module `codey` (`getDefaultSearchPlaces('codey')`;
 * a test keeps this list equal to it). codey walks them itself and never calls cosmiconfig's explorer:
 * that would load a JavaScript or TypeScript form (running it), and on creation it reads a meta config
 * from the current folder (`.config/config.mjs` and the like, run whatever the options say, or a
 * `cosmiconfig` key in package.json) that can add search places.
 */
export const PROJECT_SEARCH_PLACES = [
  'package.json',
  '.codeyrc',
  '.codeyrc.json',
  '.codeyrc.yaml',
  '.codeyrc.yml',
  '.codeyrc.js',
  '.codeyrc.ts',
  '.codeyrc.cjs',
  '.codeyrc.mjs',
  '.config/codeyrc',
  '.config/codeyrc.json',
  '.config/codeyrc.yaml',
  '.config/codeyrc.yml',
  '.config/codeyrc.js',
  '.config/codeyrc.ts',
  '.config/codeyrc.cjs',
  '.config/codeyrc.mjs',
  'codey.config.js',
  'codey.config.ts',
  'codey.config.cjs',
  'codey.config.mjs',
];

/** File name endings of config forms that are programs (loading one runs it). */
const CODE_EXTENSIONS = new Set(['.js', '.ts', '.cjs', '.mjs', '.cts', '.mts']);

/** Is this config file a program (a JavaScript or TypeScript form)? */
function isCodeConfig(file: string): boolean {
  return CODE_EXTENSIONS.has(extname(file));
}

/** The config files present in one folder of the walk, in search order. */
export interface PlacesInDir {
  dir: string;
  /** JSON and YAML forms (and package.json when it mentions `codey`): these may be read. */
  data: string[];
  /** JavaScript and TypeScript forms: never loaded, only reported. */
  code: string[];
}

const isFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * The project config files visible from `cwd`, folder by folder, the way cosmiconfig's `project`
 * strategy walks: from `cwd` upwards, up to and including the first folder with `package.json` or
 * `package.yaml`. Folders with no config file are left out. Reads nothing but package.json (to see
 * whether it mentions `codey`), so it is cheap enough for every start.
 */
export function projectConfigPlaces(cwd: string): PlacesInDir[] {
  const out: PlacesInDir[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    const found: PlacesInDir = { dir, data: [], code: [] };
    for (const place of PROJECT_SEARCH_PLACES) {
      const file = join(dir, place);
      if (!isFile(file)) continue;
      if (place === 'package.json') {
        let text: string;
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          continue;
        }
        if (text.includes('codey')) found.data.push(file);
      } else (isCodeConfig(file) ? found.code : found.data).push(file);
    }
    if (found.data.length || found.code.length) out.push(found);
    if (isFile(join(dir, 'package.json')) || isFile(join(dir, 'package.yaml'))) return out;
    if (dirname(dir) === dir) return out;
  }
}

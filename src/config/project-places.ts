import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * cosmiconfig 9's default search places for the module `codey` (`getDefaultSearchPlaces('codey')`;
 * a test keeps this list equal to it).
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

/**
 * Could cosmiconfig find a project config from `cwd`? Walks the folders its `project` strategy walks
 * (up to and including the first one with `package.json` or `package.yaml`) and looks for any search
 * place, and for a `codey` key in the package file. A false answer lets codey skip loading
 * cosmiconfig (about 50 ms of start-up); a true one may still find nothing.
 */
export function mayHaveProjectConfig(cwd: string): boolean {
  for (let dir = cwd; ; dir = dirname(dir)) {
    for (const place of PROJECT_SEARCH_PLACES.slice(1)) if (existsSync(join(dir, place))) return true;
    for (const pkg of ['package.json', 'package.yaml']) {
      const file = join(dir, pkg);
      if (!existsSync(file)) continue;
      try {
        return readFileSync(file, 'utf8').includes('codey');
      } catch {
        return true; // Let cosmiconfig report what is wrong with it.
      }
    }
    if (dirname(dir) === dir) return false;
  }
}

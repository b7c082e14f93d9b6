// What bench parts that time src/ modules share: those modules bundled with esbuild and imported,
// so a part does not depend on the CLI build.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * Bundles `exports` (export name → path of its module under `root`, e.g. `{ globTool:
 * 'src/tools/glob.ts' }`) into one ESM file in a temp folder under `root/node_modules/.cache` (so the
 * bundle's own imports resolve from node_modules), and returns that file's path; `done()` removes it.
 * @param {string} root the repository
 * @param {Record<string, string>} exports
 * @returns {Promise<{ file: string, done: () => void }>}
 */
export async function bundleSources(root, exports) {
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  const tmp = mkdtempSync(join(root, 'node_modules/.cache/codey-bench-'));
  const file = join(tmp, 'bundle.mjs');
  writeFileSync(
    join(tmp, 'entry.ts'),
    Object.entries(exports)
      .map(([name, path]) => `export { ${name} } from ${JSON.stringify(join(root, path))};\n`)
      .join(''),
  );
  await build({
    entryPoints: [join(tmp, 'entry.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: file,
    logLevel: 'silent',
    packages: 'external',
    absWorkingDir: root,
  });
  return { file, done: () => rmSync(tmp, { recursive: true, force: true }) };
}

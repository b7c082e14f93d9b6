import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** The built CLI (npm test builds dist/ first). */
const DIST = resolve(import.meta.dirname, '../../dist');

/** `yaml` of `yaml/dist/index.js`, `@scope/name` of `@scope/name/x`. */
const packageOf = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * The packages the built CLI imports from node_modules at run time (statically or with `import()`),
 * each with the built files that import it: esbuild follows dist/cli.js through its chunks, keeps
 * every package external and lists what the code (not its comments) imports.
 */
async function packagesImportedByDist(): Promise<Map<string, string[]>> {
  const result = await build({
    entryPoints: [join(DIST, 'cli.js')],
    bundle: true,
    splitting: true,
    write: false,
    metafile: true,
    outdir: join(DIST, 'scan'),
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  const builtins = new Set(builtinModules);
  const found = new Map<string, string[]>();
  for (const [file, input] of Object.entries(result.metafile.inputs)) {
    for (const im of input.imports) {
      const spec = im.path.replace(/^node:/, '');
      if (!im.external || builtins.has(spec) || builtins.has(spec.split('/')[0]!)) continue;
      const pkg = packageOf(spec);
      found.set(pkg, [...(found.get(pkg) ?? []), file]);
    }
  }
  return found;
}

describe('the built CLI bundles what every start and the first command load', () => {
  it('nothing in dist/ imports execa, yaml, picomatch or ignore from node_modules', async () => {
    const imported = await packagesImportedByDist();
    // Packages that load only with a feature stay external: the scan sees them, so it is not blind.
    expect(imported.has('undici')).toBe(true);
    expect(imported.has('cosmiconfig')).toBe(true);
    for (const pkg of ['execa', 'yaml', 'picomatch', 'ignore', 'zod', 'commander', '@anthropic-ai/sdk'])
      expect({ pkg, importedBy: imported.get(pkg) ?? [] }).toEqual({ pkg, importedBy: [] });
  });
});

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
  return (await importsOfDist()).packages;
}

/** {@link packagesImportedByDist}, and with each package the kinds of import that reach it. */
async function importsOfDist(): Promise<{
  packages: Map<string, string[]>;
  kinds: Map<string, Set<string>>;
}> {
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
  const kinds = new Map<string, Set<string>>();
  for (const [file, input] of Object.entries(result.metafile.inputs)) {
    for (const im of input.imports) {
      const spec = im.path.replace(/^node:/, '');
      if (!im.external || builtins.has(spec) || builtins.has(spec.split('/')[0]!)) continue;
      const pkg = packageOf(spec);
      found.set(pkg, [...(found.get(pkg) ?? []), file]);
      kinds.set(pkg, (kinds.get(pkg) ?? new Set()).add(im.kind));
    }
  }
  return { packages: found, kinds };
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

  it('pdfjs-dist stays out of the bundle and loads only with the first PDF (a dynamic import)', async () => {
    const { packages, kinds } = await importsOfDist();
    expect(packages.has('pdfjs-dist')).toBe(true);
    expect([...(kinds.get('pdfjs-dist') ?? [])]).toEqual(['dynamic-import']);
  });
});

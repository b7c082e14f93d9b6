import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codey, removeSandbox, sandbox, type Sandbox } from '../support/cli';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';

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

/** What one start loaded (test/support/start-up-probe.mjs). */
interface StartUp {
  stdout: string;
  /** ES module files, relative to the checkout (`dist/cli.js`, `node_modules/…`). */
  files: string[];
  /** Node's own modules (`internal/deps/undici/undici` is its fetch). */
  builtins: string[];
  /** Whether a V8 flag changed during the run. */
  flagsChanged: boolean;
}

/** The source files bundled into `files` (from each built file's source map), as the map names them. */
async function bundledSources(files: string[]): Promise<string[]> {
  const built = files.filter((f) => f.startsWith('dist/'));
  const maps = await Promise.all(built.map((f) => readFile(join(ROOT, `${f}.map`), 'utf8')));
  return maps.flatMap((m) => (JSON.parse(m) as { sources: string[] }).sources);
}

const PROBE = resolve(import.meta.dirname, '../support/start-up-probe.mjs');
const ROOT = resolve(import.meta.dirname, '../..');
const NODE_FETCH = 'internal/deps/undici/undici';

describe('what each start loads', () => {
  let fake: FakeAnthropic;
  let box: Sandbox;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
    box = await sandbox('repo-empty', fake.url);
  });
  afterAll(async () => {
    await fake.close();
    await removeSandbox(box);
  });

  async function startUp(args: string[]): Promise<StartUp> {
    const out = join(box.root, `probe-${args.join('_').replace(/\W/g, '')}.jsonl`);
    const env = { NODE_OPTIONS: `--import ${pathToFileURL(PROBE).href}`, CODEY_PROBE_OUT: out };
    const r = await codey(box, args, { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = (await readFile(out, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { file?: string; builtins?: string[]; flagsChanged?: boolean });
    const files = lines.flatMap((l) => (l.file ? [fileURLToPath(l.file).slice(ROOT.length + 1)] : []));
    const end = lines.at(-1)!;
    return { stdout: r.stdout, files, builtins: end.builtins ?? [], flagsChanged: end.flagsChanged === true };
  }

  it('--version loads no module of the CLI and changes no V8 flag', async () => {
    const s = await startUp(['--version']);
    expect(s.stdout).toMatch(/^\d+\.\d+\.\d+$/);
    // The launcher answers from package.json (a require, which the probe does not see).
    expect(s.files.filter((f) => !f.startsWith('test/'))).toEqual(['bin/codey.js']);
    expect(s.flagsChanged).toBe(false);
  });

  it("--help loads no fetch and keeps the code cache of Node's own modules (no V8 flag changed)", async () => {
    const s = await startUp(['--help']);
    expect(s.stdout).toContain('Usage: codey');
    expect(s.builtins).not.toContain(NODE_FETCH);
    expect(s.flagsChanged).toBe(false);
  });

  it('--help loads no zod: its defaults and env names come from plain tables', async () => {
    const s = await startUp(['--help']);
    expect(s.stdout.replace(/\s+/g, ' ')).toContain('(default 100; env CODEY_MAX_TURNS)');
    expect((await bundledSources(s.files)).filter((f) => f.includes('/zod/'))).toEqual([]);
  });

  it("-p loads zod's schemas with its English messages only (none of its other 60 locales)", async () => {
    fake.enqueue(reply.text('hello in English'));
    const s = await startUp(['-p', 'hi']);
    expect(s.stdout).toContain('hello in English');
    const zod = (await bundledSources(s.files)).filter((f) => f.includes('/zod/'));
    expect(zod.some((f) => f.endsWith('/v4/core/schemas.js'))).toBe(true);
    expect(zod.filter((f) => f.includes('/locales/') && !f.endsWith('/locales/en.js'))).toEqual([]);
  });

  it("-p loads Node's fetch and then compiles WebAssembly with the baseline compiler only", async () => {
    fake.enqueue(reply.text('hello from the fake'));
    const s = await startUp(['-p', 'hi']);
    expect(s.stdout).toContain('hello from the fake');
    expect(s.builtins).toContain(NODE_FETCH);
    expect(s.flagsChanged).toBe(true);
    // Everything a short turn needs is bundled; iconv-lite waits for a file that is not UTF-8.
    expect(s.files.filter((f) => f.startsWith('node_modules/'))).toEqual([]);
  });

  it('-p in a project without skills, agents or commands loads no YAML parser', async () => {
    fake.enqueue(reply.text('no yaml here'));
    const s = await startUp(['-p', 'hi']);
    expect(s.stdout).toContain('no yaml here');
    expect((await bundledSources(s.files)).filter((f) => f.includes('/yaml/'))).toEqual([]);
  });

  it('-p loads the YAML parser once a skill with a frontmatter is there, and the skill loads', async () => {
    const dir = join(box.root, '.claude', 'skills', 'greet');
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'SKILL.md'),
      '---\nname: greet\ndescription: Say hello nicely\n---\nSay hello.\n',
    );
    try {
      fake.enqueue(reply.text('with a skill'));
      const s = await startUp(['-p', 'hi']);
      expect(s.stdout).toContain('with a skill');
      expect((await bundledSources(s.files)).some((f) => f.includes('/yaml/'))).toBe(true);
      expect(JSON.stringify(fake.messageRequests.at(-1))).toContain('Say hello nicely');
    } finally {
      await rm(join(box.root, '.claude'), { recursive: true, force: true });
    }
  });

  it("-p loads the SDK's client with its Messages and Models APIs, not the SDK's every API", async () => {
    fake.enqueue(reply.text('hello again'));
    const s = await startUp(['-p', 'hi']);
    expect(s.stdout).toContain('hello again');
    const sdk = (await bundledSources(s.files))
      .filter((f) => f.includes('@anthropic-ai/sdk/'))
      .map((f) => f.split('@anthropic-ai/sdk/src/')[1]);
    expect(sdk).toContain('resources/messages/messages.ts');
    expect(sdk).toContain('resources/models.ts');
    expect(sdk.filter((f) => /^resources\/(beta\/messages|beta\/skills|completions)/.test(f))).toEqual([]);
  });
});

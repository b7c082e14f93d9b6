import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { grepTool } from '../../src/tools/grep';
import { runChild } from '../../src/tools/exec';
import { hiddenPaths, type SandboxSpec } from '../../src/tools/sandbox';
import { commandSearcher } from '../../src/web/search/command';
import { call, fakeContext, removeDir, tempDir, writeTree } from './file-tools-kit';

/** bwrap or rg is missing and this is not CI (which installs both): these tests skip. */
const has = (cmd: string) => spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;
const skip = !(has('bwrap') && has('rg')) && process.env.CI !== 'true';

let root: string;
let ws: string;
let home: string;
let spec: SandboxSpec;
const cleanups: (() => void)[] = [];

beforeEach(async () => {
  root = await tempDir('codey-sandbox-children-');
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
  await writeTree(root, {
    'ws/src/a.txt': 'needle in the workspace\n',
    'home/.ssh/id_test': 'needle PRIVATE KEY\n',
    'home/.config/codey/config.json': '{"api_key":"needle-canary"}\n',
    'home/.config/codey/skills/demo/SKILL.md': 'needle in a skill\n',
  });
  const configDir = path.join(home, '.config', 'codey');
  spec = {
    bwrap: 'bwrap',
    writable: [ws],
    hidden: hiddenPaths({ home, configDir, stateDir: path.join(home, '.local', 'state', 'codey') }),
    network: false,
  };
});
afterEach(async () => {
  for (const c of cleanups.splice(0)) c();
  await removeDir(root);
});

describe.skipIf(skip)('children of tools in the sandbox (bwrap)', () => {
  it('grep runs rg in the sandbox: a hidden folder inside the search is empty to it', async () => {
    const ctx = { ...fakeContext(home), env: { PATH: process.env.PATH ?? '' } };
    // Outside the sandbox, rg searching the home folder finds the key.
    const open = await call(grepTool, { pattern: 'needle', output_mode: 'content' }, ctx);
    expect(open.output).toContain('PRIVATE KEY');
    const r = await call(
      grepTool,
      { pattern: 'needle', output_mode: 'content' },
      { ...ctx, sandbox: { ...spec, writable: [home] } },
    );
    expect(r.output).not.toContain('PRIVATE KEY');
    expect(r.output).not.toContain('canary');
    expect(r.output).not.toContain('in a skill');
  });

  it('grep still searches a readable folder that lies inside a hidden one (a skill folder)', async () => {
    const skill = path.join(home, '.config/codey/skills/demo');
    const ctx = {
      ...fakeContext(ws),
      env: { PATH: process.env.PATH ?? '' },
      readRoots: [skill],
      sandbox: spec,
    };
    const r = await call(grepTool, { pattern: 'needle', path: skill, output_mode: 'content' }, ctx);
    expect(r.output).toContain('needle in a skill');
    expect(r.output).not.toContain('canary');
  });

  it('the web search command runs in the sandbox, with the network and its results file', async () => {
    const got: string[] = [];
    const server = createServer((s) => s.on('data', (d) => got.push(String(d))));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => server.close());
    const port = (server.address() as { port: number }).port;
    // A folder outside /tmp (the sandbox's /tmp is its own): the test's own folder.
    const away = await mkdtemp(path.join(process.cwd(), '.sandbox-test-'));
    cleanups.push(() => rmSync(away, { recursive: true, force: true }));
    // Outside /tmp too, so that the command can read it.
    const script = path.join(away, 'search.mjs');
    await writeFile(
      script,
      [
        "import { readFileSync, writeFileSync } from 'node:fs';",
        "import { connect } from 'node:net';",
        'const [query, out, key, away, port] = process.argv.slice(2);',
        "let saw = 'no key';",
        "try { saw = readFileSync(key, 'utf8'); } catch {}",
        "let wrote = 'no';",
        "try { writeFileSync(away + '/made', 'x'); wrote = 'yes'; } catch {}",
        "const s = connect(Number(port), '127.0.0.1', () => s.end('hello'));",
        "s.on('close', () => writeFileSync(out, JSON.stringify([{ title: saw + ' ' + wrote, href: 'https://example.com/', body: query }])));",
      ].join('\n'),
    );
    const searcher = commandSearcher({
      argv: [
        process.execPath,
        script,
        '{query}',
        '{out}',
        path.join(home, '.ssh/id_test'),
        away,
        String(port),
      ],
      env: { PATH: process.env.PATH, HOME: home },
      run: runChild,
      sandbox: { bwrap: 'bwrap', hidden: spec.hidden },
    });
    const results = await searcher.search({ text: 'q', count: 5 }, new AbortController().signal);
    expect(results[0]?.title).toBe('no key no');
    expect(existsSync(path.join(away, 'made'))).toBe(false);
    await expect.poll(() => got.join(''), { timeout: 10_000 }).toBe('hello');
  });
});

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostTag } from '../../src/util/pid';

// Several codeys resuming the same session at the same moment, while a dead codey's lock is still
// there: the takeover must leave exactly one of them holding it. Real processes (the race is
// between processes), each running the real lockSession, released together once all have answered.
let dir: string;
let bundle: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'codey-lock-race-'));
  bundle = join(dir, 'lock.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, '../../src/session/lock.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: bundle,
    logLevel: 'silent',
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CHILD = `
import { existsSync } from 'node:fs';
const [bundle, store, go, done] = process.argv.slice(1);
const { lockSession } = await import(bundle);
console.log('ready');
while (!existsSync(go)) {}
try { lockSession(store, 's'); console.log('got'); } catch (e) { console.log(e.name); }
const t = setInterval(() => existsSync(done) && (clearInterval(t), process.exit(0)), 10);
`;

/** One round: a dead codey's lock, `n` codeys taking it at once; resolves with what each said. */
async function round(k: number, n: number): Promise<string[]> {
  const store = join(dir, `store-${k}`);
  const go = join(dir, `go-${k}`);
  const done = join(dir, `done-${k}`);
  const dead = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((r) => dead.on('exit', r));
  const { mkdirSync } = await import('node:fs');
  mkdirSync(store, { recursive: true });
  writeFileSync(join(store, 's.lock'), JSON.stringify({ host: hostTag(), pid: dead.pid }));
  const children = Array.from({ length: n }, () => {
    const c = spawn(process.execPath, ['--input-type=module', '-e', CHILD, bundle, store, go, done], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines: string[] = [];
    let buf = '';
    const said = (what: (l: string[]) => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => what(lines) && resolve();
        c.stdout.on('data', (d: Buffer) => {
          buf += d;
          lines.splice(0, lines.length, ...buf.split('\n').filter(Boolean));
          check();
        });
        check();
      });
    return { c, lines, said, exited: new Promise((r) => c.on('exit', r)) };
  });
  await Promise.all(children.map((ch) => ch.said((l) => l.includes('ready'))));
  writeFileSync(go, '');
  await Promise.all(children.map((ch) => ch.said((l) => l.length >= 2)));
  writeFileSync(done, '');
  await Promise.all(children.map((ch) => ch.exited));
  return children.map((ch) => ch.lines[1]);
}

describe('lockSession under a race', () => {
  it('lets exactly one of several codeys take over a dead codey’s lock, every time', async () => {
    for (let k = 0; k < 12; k++) {
      const answers = await round(k, 4);
      expect(
        answers.filter((a) => a === 'got'),
        `round ${k}: ${answers.join(', ')}`,
      ).toHaveLength(1);
      expect(answers.filter((a) => a !== 'got')).toEqual([
        'SessionInUseError',
        'SessionInUseError',
        'SessionInUseError',
      ]);
    }
  }, 120_000);
});

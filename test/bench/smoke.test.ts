import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// `npm run bench` in its smoke mode (one run of each part on small inputs): every part runs to its
// end and reports its headline figures in the summary table. The figures themselves are not read.
const ROOT = resolve(import.meta.dirname, '../..');
const built = existsSync(join(ROOT, 'dist/cli.js'));

describe.skipIf(!built)('npm run bench, smoke mode', () => {
  it('runs every part to its end and ends with one summary table', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bench/run.mjs')], {
      cwd: ROOT,
      env: { ...process.env, BENCH_SMOKE: '1' },
      encoding: 'utf8',
      timeout: 280_000,
    });
    const out = r.stdout + r.stderr;
    expect(out).not.toContain('failed:');
    expect(r.status).toBe(0);
    const table = out.slice(out.indexOf('=== summary'));
    const parts = table.split('\n').map((l) => l.split(' ')[0]);
    for (const part of ['startup', 'tui', 'search', 'picker', 'resume', 'subagents', 'pdf'])
      expect(parts).toContain(part);
    if (existsSync(resolve(ROOT, '../shared/cases/html'))) expect(parts).toContain('html');
    expect(table).toMatch(/^search +grep, JavaScript vs readdir/m);
    expect(out).toContain('every part ran to its end');
  }, 300_000);
});

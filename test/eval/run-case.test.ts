/**
 * The runner around a case, with a stand-in for codey (a small script that prints stream-json): the
 * network guard fails a case that connects elsewhere, and cases run at once get their own workspaces.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite, type SuiteOptions } from '../../src/eval/run-suite';

const GUARD = resolve(import.meta.dirname, '../../dist/eval-guard.js');
const root = mkdtempSync(join(tmpdir(), 'codey-eval-runner-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A stand-in CLI: writes `<prompt>.txt`, lists the folder after a pause, maybe connects out, prints a result line. */
const FAKE_CLI = `
import { readdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
const prompt = process.argv[process.argv.indexOf('-p') + 1];
writeFileSync(prompt + '.txt', prompt);
if (prompt.startsWith('connect')) {
  try { net.connect(80, '192.0.2.1').on('error', () => {}); } catch (e) { process.stderr.write(String(e) + '\\n'); }
}
await new Promise((r) => setTimeout(r, 300));
const files = readdirSync('.').sort().join(' ');
console.log(JSON.stringify({ type: 'tool_start', id: 't1', name: 'bash', input: { command: 'ls' } }));
console.log(JSON.stringify({ type: 'tool_end', id: 't1', name: 'bash', status: 'done', output: files }));
console.log(JSON.stringify({ type: 'result', result: 'files: ' + files, num_turns: 0, usage: {} }));
`;
const cli = join(root, 'fake-cli.mjs');
writeFileSync(cli, FAKE_CLI);

function makeCase(name: string, checks: object): void {
  const dir = join(root, 'cases', name);
  mkdirSync(join(dir, 'workspace'), { recursive: true });
  writeFileSync(join(dir, 'workspace', 'seed.txt'), 'seed');
  writeFileSync(join(dir, 'case.json'), JSON.stringify({ prompt: name, checks }));
  writeFileSync(join(dir, 'cassette.jsonl'), '');
}
makeCase('alpha', { result_contains: 'files: alpha.txt seed.txt', files: { 'beta.txt': { absent: true } } });
makeCase('beta', { result_contains: 'files: beta.txt seed.txt', files: { 'alpha.txt': { absent: true } } });
makeCase('connect-out', { result_contains: 'files:' });

const suite = (over: Partial<SuiteOptions>) =>
  runSuite({ dirs: [join(root, 'cases')], filters: [], jobs: 2, repeat: 1, cli, guard: GUARD, ...over });

describe('the runner', () => {
  it('gives cases run at once their own workspace', async () => {
    const report = await suite({ filters: ['alpha', 'beta'] });
    expect(report.cases.map((c) => [c.name, c.ok, c.reasons])).toEqual([
      ['alpha', true, []],
      ['beta', true, []],
    ]);
    expect(report.cases[0].tools).toEqual({ bash: 1 });
  });

  it('fails a case whose codey connects anywhere but the model server', async () => {
    const report = await suite({ filters: ['connect'] });
    expect(report.cases[0].ok).toBe(false);
    expect(report.cases[0].reasons).toContain(
      'codey eval: network guard: blocked a connection to 192.0.2.1:80',
    );
    rmSync(report.cases[0].kept!, { recursive: true, force: true });
  });

  it('takes the K-th shard only', async () => {
    const report = await suite({ shard: { index: 3, count: 3 } });
    expect(report.cases.map((c) => c.name)).toEqual(['connect-out']);
    rmSync(report.cases[0].kept!, { recursive: true, force: true });
  });
});

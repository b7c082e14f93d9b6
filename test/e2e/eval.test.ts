/**
 * `codey eval` end to end: record a case against a local scripted Messages API, replay it offline to
 * a pass from the default folder, then change what the model would read and see it fail as drift,
 * and pass again after `--update`.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { BIN } from '../support/cli';

let root: string;
let project: string;
let caseDir: string;
let fake: FakeAnthropic;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'codey-e2e-eval-'));
  project = join(root, 'project');
  caseDir = join(project, '.codey', 'evals', 'read-hello');
  await mkdir(join(caseDir, 'workspace'), { recursive: true });
  await writeFile(join(caseDir, 'workspace', 'a.txt'), 'hello\n');
  await writeFile(
    join(caseDir, 'case.json'),
    JSON.stringify({
      prompt: 'What does a.txt say?',
      checks: {
        tools: ['read_file'],
        files: { 'a.txt': { contains: 'hello' } },
        result_contains: 'hello',
        max_requests: 2,
      },
    }),
  );
  fake = await startFakeAnthropic({ apiKeys: ['sk-ant-e2e-eval-key'] });
});
afterAll(async () => {
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

const evalCli = (args: string[], env: Record<string, string> = {}) =>
  execa('node', [BIN, 'eval', ...args], {
    cwd: project,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, ...env },
    extendEnv: false,
    reject: false,
    timeout: 30_000,
  });

describe('codey eval', () => {
  it(
    'records, replays to a pass, and fails a changed tool_result as drift',
    { timeout: 60_000 },
    async () => {
      fake.enqueue(
        reply.toolUse('read_file', { path: 'a.txt' }, { id: 'toolu_e2e_1' }),
        reply.text('a.txt says hello.'),
      );
      const recorded = await evalCli(
        ['--record', '--base-url', fake.url, '--json', join(root, 'record.json')],
        {
          ANTHROPIC_API_KEY: 'sk-ant-e2e-eval-key',
        },
      );
      expect(recorded.stdout).toContain('1 passed, 0 failed');
      expect(recorded.exitCode).toBe(0);
      const lines = (await readFile(join(caseDir, 'cassette.jsonl'), 'utf8')).trim().split('\n');
      expect(lines.map((l) => Object.keys(JSON.parse(l) as object))).toEqual([
        ['request', 'response'],
        ['request', 'response'],
      ]);

      // Offline now: the fake is not used again, and no key is given.
      const before = fake.messageRequests.length;
      const replayed = await evalCli(['--json', join(root, 'replay.json')]);
      expect(replayed.exitCode).toBe(0);
      expect(replayed.stdout).toMatch(/^PASS\s+read-hello\s+2\s/m);
      expect(fake.messageRequests.length).toBe(before);
      const report = JSON.parse(await readFile(join(root, 'replay.json'), 'utf8')) as {
        mode: string;
        cases: { requests: number; tools: object }[];
        totals: { passed: number; failed: number };
      };
      expect(report).toMatchObject({ mode: 'replay', totals: { passed: 1, failed: 0 } });
      expect(report.cases[0]).toMatchObject({ requests: 2, tools: { read_file: 1 } });

      await writeFile(join(caseDir, 'workspace', 'a.txt'), 'hello again\n');
      const drifted = await evalCli([]);
      expect(drifted.exitCode).toBe(1);
      expect(drifted.stdout).toContain(
        'cassette drift: request 2: messages[2] (user): the tool_result for toolu_e2e_1 (read_file), now',
      );

      // A deliberate change: --update gives the cassette the new digests, and replay passes again.
      const updated = await evalCli(['--update']);
      expect(updated.stdout).toContain('1 passed, 0 failed');
      const after = (await readFile(join(caseDir, 'cassette.jsonl'), 'utf8')).trim().split('\n');
      expect(after).not.toEqual(lines);
      expect(after.map((l) => (JSON.parse(l) as { response: unknown }).response)).toEqual(
        lines.map((l) => (JSON.parse(l) as { response: unknown }).response),
      );
      expect((await evalCli([])).exitCode).toBe(0);

      const merged = await evalCli(['--merge', join(root, 'record.json'), join(root, 'replay.json')]);
      expect(merged.stdout).toContain('2 passed, 0 failed');
      expect(merged.exitCode).toBe(0);
    },
  );

  it("ends the commands of a run it kills at the case's timeout_ms", { timeout: 60_000 }, async () => {
    const dir = join(root, 'hang');
    await mkdir(join(dir, 'workspace'), { recursive: true });
    const beat = "node -e \"setInterval(() => require('fs').appendFileSync('beat', '.'), 50)\"";
    await writeFile(
      join(dir, 'case.json'),
      JSON.stringify({ prompt: 'Start the watcher.', allow: [`bash(${beat})`], timeout_ms: 2_000 }),
    );
    const call = {
      type: 'tool_use',
      id: 'toolu_hang',
      name: 'bash',
      input: { command: beat, timeout_ms: 600_000 },
    };
    await writeFile(join(dir, 'cassette.jsonl'), JSON.stringify({ content: [call] }) + '\n');
    const r = await evalCli(['--update', dir]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('no exit within 2000 ms (killed)');
    const kept = /kept (\S+)/.exec(r.stdout)?.[1] ?? '';
    const size = async () => (await readFile(join(kept, 'workspace', 'beat'))).length;
    const before = await size();
    await new Promise((done) => setTimeout(done, 400));
    expect(await size()).toBe(before);
    await rm(kept, { recursive: true, force: true });
  });

  it('says what is wrong with the arguments and exits 2', { timeout: 30_000 }, async () => {
    for (const args of [
      ['--shard', '5/4'],
      ['--jobs', '0'],
      ['--repeat', '3'],
      ['no-such-folder'],
      ['--live'],
      ['--update', '--record'],
    ]) {
      const r = await evalCli(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^codey eval: /);
    }
  });
});

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { codey } from '../support/cli';
import { e2eSandbox } from '../support/e2e-sandbox';
import { reply } from '../support/fake-anthropic';

const e2e = e2eSandbox();
beforeEach(() => writeFile(join(e2e.box.cwd, 'notes.txt'), 'old\n'));

type Block = { type: string; content?: string; is_error?: boolean };
const resultIn = (i: number) =>
  (e2e.fake.messageRequests[i].body.messages!.at(-1)!.content as Block[]).find(
    (b) => b.type === 'tool_result',
  );
const notes = () => readFile(join(e2e.box.cwd, 'notes.txt'), 'utf8');
const json = (args: string[]) => codey(e2e.box, ['-p', 'go', '--output-format', 'json', ...args]);

describe('-p in each permission mode', () => {
  it('--permission-mode plan prints the plan and exits 0 without changing anything', async () => {
    e2e.fake.enqueue(
      reply.toolUse('write_file', { path: 'notes.txt', content: 'new\n' }),
      reply.toolUse('bash', { command: 'touch made-by-bash' }),
      reply.text('Plan: 1. rewrite notes.txt 2. touch made-by-bash'),
    );
    const r = await json(['--permission-mode', 'plan', '--allow', 'bash,write_file']);
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.result).toBe('Plan: 1. rewrite notes.txt 2. touch made-by-bash');
    expect(out.permission_mode).toBe('plan');
    expect(out.permission_denials.map((d: { reason: string }) => d.reason)).toEqual(['mode', 'mode']);
    for (const i of [1, 2]) {
      expect(resultIn(i)?.is_error).toBe(true);
      expect(resultIn(i)?.content).toContain('the session is in plan mode');
      expect(resultIn(i)?.content).toContain('present your plan');
    }
    expect(await notes()).toBe('old\n');
    await expect(readFile(join(e2e.box.cwd, 'made-by-bash'))).rejects.toThrow();
  });

  it('plan in text mode prints only the plan on stdout', async () => {
    e2e.fake.enqueue(
      reply.toolUse('edit_file', { path: 'notes.txt', old_string: 'old', new_string: 'new' }),
      reply.text('The plan.'),
    );
    const r = await codey(e2e.box, ['-p', 'go', '--permission-mode', 'plan', '--verbose']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('The plan.');
    expect(r.stderr).toContain('codey: permission mode plan (flag)');
    expect(r.stderr).toContain('codey: denied by plan mode');
    expect(await notes()).toBe('old\n');
  });

  it('--permission-mode acceptEdits writes without asking; bash still needs a rule', async () => {
    e2e.fake.enqueue(
      reply.toolUse('write_file', { path: 'notes.txt', content: 'new\n' }),
      reply.toolUse('bash', { command: 'echo hi' }),
      reply.text('done'),
    );
    const r = await json(['--permission-mode', 'acceptEdits']);
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.permission_mode).toBe('accept-edits');
    expect(await notes()).toBe('new\n');
    expect(out.permission_denials).toEqual([
      expect.objectContaining({ tool_name: 'bash', reason: 'no_one_to_ask' }),
    ]);
  });

  it('--dangerously-skip-permissions is bypass: commands run, a deny rule and a protected path still refuse', async () => {
    e2e.fake.enqueue(
      reply.toolUse('bash', { command: 'echo ran-it' }),
      reply.toolUse('bash', { command: 'rm notes.txt' }),
      reply.toolUse('write_file', { path: 'package.json', content: '{"scripts":{}}\n' }),
      reply.text('done'),
    );
    const r = await json(['--dangerously-skip-permissions', '--deny', 'bash(rm:*)']);
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.permission_mode).toBe('bypass');
    expect(resultIn(1)?.content).toContain('ran-it');
    expect(resultIn(2)?.content).toContain('the rule "bash(rm:*)" refuses this call');
    expect(resultIn(3)?.content).toContain('needs the person');
    expect(await notes()).toBe('old\n');
    expect(out.permission_denials.map((d: { reason: string }) => d.reason)).toEqual([
      'rule',
      'no_one_to_ask',
    ]);
  });

  it('a mode name that is not one is a usage error naming the flag', async () => {
    const r = await codey(e2e.box, ['-p', 'go', '--permission-mode', 'yolo']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--permission-mode "yolo" is not valid');
  });
});

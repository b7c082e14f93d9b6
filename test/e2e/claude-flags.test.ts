import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codey } from '../support/cli';
import { e2eSandbox } from '../support/e2e-sandbox';
import { reply } from '../support/fake-anthropic';

const e2e = e2eSandbox();

type Block = { type: string; content?: string; is_error?: boolean };
const resultIn = (i: number) =>
  (e2e.fake.messageRequests[i].body.messages!.at(-1)!.content as Block[]).find(
    (b) => b.type === 'tool_result',
  );
const systemOf = (i: number) => JSON.stringify(e2e.fake.messageRequests[i].body.system);

describe('the flags Claude Code users type', () => {
  it('--allowedTools allows as --allow does, space or comma separated', async () => {
    e2e.fake.enqueue(reply.toolUse('bash', { command: 'echo hi' }), reply.text('ran'));
    const r = await codey(e2e.box, [
      '-p',
      'go',
      '--output-format',
      'json',
      '--allowedTools',
      'Bash(echo:*) Edit,Read',
    ]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).permission_denials).toEqual([]);
    expect(resultIn(1)?.content).toContain('hi');
  });

  it('--disallowedTools refuses, and --verbose prints the decision as a deny by its rule', async () => {
    e2e.fake.enqueue(reply.toolUse('bash', { command: 'echo hi' }), reply.text('refused'));
    const r = await codey(e2e.box, [
      '-p',
      'go',
      '--verbose',
      '--allow',
      'bash',
      '--disallowedTools',
      'Bash(echo *)',
    ]);
    expect(r.exitCode).toBe(0);
    expect(resultIn(1)?.content).toContain('the rule "Bash(echo *)" refuses this call');
    expect(r.stderr).toContain('codey: deny rules: Bash(echo *)');
    expect(r.stderr).toContain('codey: denied by rule Bash(echo *)');
    expect(r.stderr).not.toContain('allowed by rule Bash(echo *)');
  });

  it('--add-dir opens another folder to the file tools, with the same jail; the prompt names it', async () => {
    const other = join(e2e.box.root, 'other');
    await mkdir(other);
    const inside = join(other, 'notes.md');
    const outside = join(e2e.box.root, 'elsewhere.md');
    e2e.fake.enqueue(
      reply.toolUse('write_file', { path: inside, content: 'kept\n' }),
      reply.toolUse('write_file', { path: outside, content: 'no\n' }),
      reply.text('done'),
    );
    const r = await codey(e2e.box, ['-p', 'go', '--allow', 'write_file', '--add-dir', other]);
    expect(r.exitCode).toBe(0);
    expect(await readFile(inside, 'utf8')).toBe('kept\n');
    expect(resultIn(2)?.is_error).toBe(true);
    expect(resultIn(2)?.content).toContain('is outside the workspace');
    expect(systemOf(0)).toContain(
      `Other folders the file tools may read and change (give their absolute paths): ${other}`,
    );
  });

  it('--append-system-prompt ends the system prompt with the text', async () => {
    e2e.fake.enqueue(reply.text('ok'));
    const r = await codey(e2e.box, ['-p', 'go', '--append-system-prompt', 'Answer in French.']);
    expect(r.exitCode).toBe(0);
    expect(systemOf(0)).toContain('Answer in French.');
  });

  it('--help lists them beside codey’s own names', async () => {
    const r = await codey(e2e.box, ['--help']);
    for (const flag of [
      '--allowedTools',
      '--disallowedTools',
      '--add-dir',
      '--append-system-prompt',
      '--deny',
    ])
      expect(r.stdout).toContain(flag);
  });
});

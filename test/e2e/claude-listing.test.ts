import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codey, removeSandbox, sandbox, type Sandbox } from '../support/cli';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';

let fake: FakeAnthropic;
let box: Sandbox;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-empty', fake.url);
});
afterEach(async () => {
  await fake.close();
  await removeSandbox(box);
});

async function put(file: string, text: string) {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

describe('--verbose lists what loaded from where', () => {
  it('names the command files (a namespaced one with its short name) and the instructions not read, with why', async () => {
    await put(join(box.cwd, '.claude/commands/opsx/apply.md'), 'Apply $1.\n');
    await put(join(box.cwd, 'CLAUDE.md'), 'Rules here.\n');
    await put(join(box.cwd, '.claude/rules/api.md'), '---\npaths: "src/api/**"\n---\nAPI rule.\n');
    fake.enqueue(reply.text('done'));
    const r = await codey(box, ['-p', 'hi', '--verbose']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(
      'codey: commands: /opsx:apply (also /apply) project: .claude/commands/opsx/apply.md',
    );
    expect(r.stderr).toContain('codey: project instructions: CLAUDE.md');
    expect(r.stderr).toContain(
      'codey: instructions not read: .claude/rules/api.md (paths: rules load when the model reads a matching file; not read yet)',
    );
  });
});

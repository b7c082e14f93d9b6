import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codey } from '../support/cli';
import { e2eSandbox } from '../support/e2e-sandbox';
import { reply } from '../support/fake-anthropic';

const e2e = e2eSandbox();

async function put(file: string, text: string) {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

describe('--verbose lists what loaded from where', () => {
  it('names the command files (a namespaced one with its short name) and the instructions that load when a file they cover is read', async () => {
    await put(join(e2e.box.cwd, '.claude/commands/opsx/apply.md'), 'Apply $1.\n');
    await put(join(e2e.box.cwd, 'CLAUDE.md'), 'Rules here.\n');
    await put(join(e2e.box.cwd, '.claude/rules/api.md'), '---\npaths: "src/api/**"\n---\nAPI rule.\n');
    e2e.fake.enqueue(reply.text('done'));
    const r = await codey(e2e.box, ['-p', 'hi', '--verbose']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(
      'codey: commands: /opsx:apply (also /apply) project: .claude/commands/opsx/apply.md',
    );
    expect(r.stderr).toContain('codey: project instructions: CLAUDE.md');
    expect(r.stderr).toContain(
      'codey: instructions loaded when a file they cover is read: CLAUDE.md and AGENTS.md of sub-folders, .claude/rules/api.md (paths: src/api/**)',
    );
  });
});

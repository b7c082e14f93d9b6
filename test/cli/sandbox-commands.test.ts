import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expandPrintPrompt } from '../../src/cli/command-prompt';
import { createSession } from '../../src/cli/session';
import { resolveSettings } from '../../src/config/resolve';
import { block, ScriptedLlm } from '../../src/llm/scripted';

const hasBwrap = spawnSync('bwrap', ['--version'], { stdio: 'ignore' }).status === 0;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function put(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

describe.skipIf(!hasBwrap && process.env.CI !== 'true')("a command file's !`cmd` with the sandbox on", () => {
  it('runs in the sandbox: it writes the workspace, not outside, and reads no key', async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'codey-sbcmd-')));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    // A folder outside /tmp (the sandbox's /tmp is its own): the test's own folder.
    const away = await mkdtemp(join(process.cwd(), '.sandbox-test-'));
    cleanups.push(() => rmSync(away, { recursive: true, force: true }));
    const ws = join(root, 'repo');
    const home = join(root, 'home');
    await put(join(home, '.ssh/id_test'), 'PRIVATE KEY\n');
    await put(
      join(home, '.claude/commands/probe.md'),
      `Probe: !\`echo in > inside.txt; echo x > ${away}/made; cat ~/.ssh/id_test; echo done\`\n`,
    );
    await mkdir(ws, { recursive: true });
    const env = {
      HOME: home,
      XDG_CONFIG_HOME: join(root, 'xdg'),
      XDG_STATE_HOME: join(root, 'state'),
      ANTHROPIC_API_KEY: 'sk-ant-test',
      PATH: process.env.PATH,
    };
    const flags = { sandbox: 'on', allow: ['bash'] };
    const { settings } = await resolveSettings({ env, cwd: ws, flags, userFile: join(root, 'config.json') });
    const s = await createSession({
      settings,
      cwd: ws,
      env,
      version: 'test',
      noWeb: true,
      llm: new ScriptedLlm([{ content: [block.text('ok')] }]),
    });
    const prompt = await expandPrintPrompt('/probe', s, new AbortController().signal);
    expect(prompt).toContain('Read-only file system');
    expect(prompt).not.toContain('PRIVATE KEY');
    expect(prompt).toContain('done');
    expect(existsSync(join(ws, 'inside.txt'))).toBe(true);
    expect(existsSync(join(away, 'made'))).toBe(false);
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, CANARY, sandbox, sessionLogs, type Sandbox } from '../support/cli';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { EXIT_MARK, hasTmux, startTmux, type TmuxTerminal } from '../support/tmux';

// The built CLI in a real terminal (tmux), typed at and read back as a person would.
// The command's output differs from its text, so the output on screen can only come from running it.
const COMMAND = "printf 'hello-%s\\n' from-bash | tee out.txt";
const FINAL = 'Wrote out.txt with the greeting.';

let fake: FakeAnthropic;
let box: Sandbox;
let term: TmuxTerminal | undefined;

beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-empty', fake.url);
  // With a user config present the first start opens the app, not the setup wizard.
  const configDir = join(box.env.XDG_CONFIG_HOME, 'codey');
  await mkdir(configDir, { recursive: true });
  await writeFile(join(configDir, 'config.json'), JSON.stringify({ model: 'claude-opus-4-8' }));
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await fake.close();
  await rm(box.root, { recursive: true, force: true });
});

type Block = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean };

describe('codey in a real terminal', () => {
  it.skipIf(!hasTmux())(
    'runs a turn whose bash call the person approves with a key',
    async () => {
      fake.enqueue(
        reply.toolUse('bash', { command: COMMAND }, { before: 'I will write the file.' }),
        reply.text(FINAL),
      );
      term = startTmux({ argv: ['node', BIN], cwd: box.cwd, env: box.env });

      await term.waitFor('the input box', (s) => s.includes('Ask codey'));
      term.type('write a greeting to out.txt');
      term.keys('Enter');

      const ask = await term.waitFor('the approval prompt', (s) => s.includes('Allow this?'));
      expect(ask).toContain(COMMAND);
      expect(ask).toMatch(/❯ 1\. Yes /);
      term.keys('1');

      // The turn is over when the final text is shown and the input box is back.
      const done = await term.waitFor(
        'the final text and the input box',
        (s) => s.includes(FINAL) && s.includes('Ask codey'),
      );
      expect(done).not.toContain('Allow this?');
      expect(done).toContain('write a greeting to out.txt');
      // The bash view: the command, its output on a line of its own (not the command's text), the exit code.
      expect(done).toContain(COMMAND);
      expect(done).toMatch(/^\W*hello-from-bash$/m);
      expect(done).toMatch(/^\s+exit 0$/m);
      expect(done).not.toContain(CANARY);

      expect(await readFile(join(box.cwd, 'out.txt'), 'utf8')).toBe('hello-from-bash\n');
      expect(fake.messageRequests).toHaveLength(2);
      const first = fake.messageRequests[0].body.messages!;
      expect(first.at(-1)!.content).toEqual(
        expect.arrayContaining([expect.objectContaining({ text: 'write a greeting to out.txt' })]),
      );
      const results = (fake.messageRequests[1].body.messages!.at(-1)!.content as Block[]).filter(
        (b) => b.type === 'tool_result',
      );
      expect(results).toHaveLength(1);
      expect(results[0].is_error).not.toBe(true);
      expect(JSON.stringify(results[0].content)).toContain('hello-from-bash');

      term.type('/exit');
      term.keys('Enter');
      const end = await term.waitFor('codey to exit', (s) => EXIT_MARK.test(s));
      expect(EXIT_MARK.exec(end)?.[1]).toBe('0');
      expect(end).not.toContain(CANARY);
    },
    60_000,
  );

  it.skipIf(!hasTmux())(
    '`codey setup` runs the wizard again over an existing config, and saves the new choice merged into it',
    async () => {
      const file = join(box.env.XDG_CONFIG_HOME, 'codey', 'config.json');
      await writeFile(file, JSON.stringify({ model: 'claude-opus-4-8', theme: 'light' }));
      term = startTmux({ argv: ['node', BIN, 'setup'], cwd: box.cwd, env: box.env });
      await term.waitFor('the key step', (s) => s.includes('codey setup · 1/4'));
      term.keys('Enter'); // key from the environment
      await term.waitFor('the model step', (s) => s.includes('2/4'));
      term.keys('Enter'); // the default model
      await term.waitFor('the web step', (s) => s.includes('3/4'));
      term.type('2'); // hosted
      await term.waitFor('the summary', (s) => s.includes('4/4'));
      term.keys('Enter');
      const done = await term.waitFor('the exit', (s) => EXIT_MARK.test(s));
      expect(done).toContain('Saved to');
      expect(EXIT_MARK.exec(done)?.[1]).toBe('0');
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
        model: 'claude-opus-4-8',
        theme: 'light',
        web_provider: 'hosted',
      });
      expect(done).not.toContain(CANARY);
    },
    40_000,
  );

  it.skipIf(!hasTmux()).each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    '%s mid-bash: the turn stops, the tool dies, the log is closed, the terminal restored, exit %i',
    async (signal, code) => {
      fake.enqueue(
        reply.toolUse('bash', { command: 'echo $$ > pid.txt; echo $PPID > codey.pid; exec sleep 30' }),
        reply.text('never'),
      );
      term = startTmux({ argv: ['node', BIN, '--allow', 'bash'], cwd: box.cwd, env: box.env });
      await term.waitFor('the input box', (s) => s.includes('Ask codey'));
      term.type('run it');
      term.keys('Enter');
      const pidFile = join(box.cwd, 'pid.txt');
      await term.waitFor(
        'the bash call',
        () => existsSync(pidFile) && existsSync(join(box.cwd, 'codey.pid')),
      );
      const pid = Number((await readFile(pidFile, 'utf8')).trim());
      const codeyPid = Number((await readFile(join(box.cwd, 'codey.pid'), 'utf8')).trim());
      expect(() => process.kill(pid, 0)).not.toThrow();
      process.kill(codeyPid, signal);

      const end = await term.waitFor('codey to exit', (s) => EXIT_MARK.test(s));
      expect(EXIT_MARK.exec(end)?.[1]).toBe(String(code));
      expect(() => process.kill(pid, 0)).toThrow();
      // Ink hid the cursor while it ran; closing the app shows it again.
      const cursor = execFileSync(
        'tmux',
        ['-L', term.socket, 'display-message', '-p', '-t', 't', '#{cursor_flag}'],
        {
          encoding: 'utf8',
        },
      );
      expect(cursor.trim()).toBe('1');
      const log = (await sessionLogs(box))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; status?: string });
      expect(log.find((e) => e.type === 'tool_end')).toMatchObject({ status: 'interrupted' });
      expect(log.at(-1)).toMatchObject({ type: 'session_end', exit_code: code, signal });
      expect(fake.messageRequests).toHaveLength(1);
    },
    40_000,
  );

  it.skipIf(!hasTmux())(
    'closing the terminal mid-bash (SIGHUP from tmux) kills the tool and ends the log',
    async () => {
      fake.enqueue(
        reply.toolUse('bash', { command: 'echo $$ > pid.txt; exec sleep 30' }),
        reply.text('never'),
      );
      term = startTmux({ argv: ['node', BIN, '--allow', 'bash'], cwd: box.cwd, env: box.env });
      await term.waitFor('the input box', (s) => s.includes('Ask codey'));
      term.type('run it');
      term.keys('Enter');
      const pidFile = join(box.cwd, 'pid.txt');
      await term.waitFor('the bash call', () => existsSync(pidFile));
      const pid = Number((await readFile(pidFile, 'utf8')).trim());
      execFileSync('tmux', ['-L', term.socket, 'kill-session', '-t', 't']);
      const lastRecord = async () =>
        JSON.parse((await sessionLogs(box)).trim().split('\n').at(-1) ?? '{}') as { type?: string };
      for (let i = 0; i < 200 && (await lastRecord()).type !== 'session_end'; i++) await sleep(25);
      expect(await lastRecord()).toMatchObject({ type: 'session_end', exit_code: 129, signal: 'SIGHUP' });
      expect(() => process.kill(pid, 0)).toThrow();
    },
    40_000,
  );
});

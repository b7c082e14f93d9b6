import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  block,
  countCacheBreakpoints,
  fault,
  reply,
  startFakeAnthropic,
  toolResultsPaired,
  type FakeAnthropic,
} from '../support/fake-anthropic';
import {
  CANARY,
  codey,
  removeSandbox,
  sandbox,
  sessionLogs,
  sessionStore,
  type Sandbox,
} from '../support/cli';

let fake: FakeAnthropic;
let box: Sandbox;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-failing-test', fake.url);
});
afterEach(async () => {
  await fake.close();
  await removeSandbox(box);
});

/** The scripted model: read the test, read the source, fix it, run the test, answer. */
function scriptFix(
  answer = 'Fixed src/add.js: add() subtracted instead of adding. `node test.js` passes now.',
) {
  fake.enqueue(
    reply.toolUse('read_file', { path: 'test.js' }, { before: 'Let me look at the failing test.' }),
    reply.toolUse('read_file', { path: 'src/add.js' }),
    reply.toolUse('edit_file', {
      path: 'src/add.js',
      old_string: 'return a - b;',
      new_string: 'return a + b;',
    }),
    reply.toolUse('bash', { command: 'node test.js' }),
    reply.text(answer),
  );
  return answer;
}

type Block = { type: string; content?: string; is_error?: boolean; text?: string };
const lastUser = (i: number) => fake.messageRequests[i].body.messages!.at(-1)!.content as Block[];

describe('codey -p, end to end', () => {
  it('fixes a failing test: reads, edits, runs the test, answers', async () => {
    const answer = scriptFix();
    const r = await codey(box, [
      '-p',
      'make the test pass',
      '--allow',
      'edit_file',
      '--allow',
      'bash(node test.js)',
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(answer);
    expect(await readFile(join(box.cwd, 'src/add.js'), 'utf8')).toBe(
      'export function add(a, b) {\n  return a + b;\n}\n',
    );
    // One line per tool call on stderr.
    expect(r.stderr.split('\n').filter((l) => l.startsWith('● '))).toHaveLength(4);
    expect(r.stderr).toContain('● Bash(node test.js)');

    expect(fake.messageRequests).toHaveLength(5);
    expect(lastUser(1)[0].content).toContain('assert.equal(add(2, 3), 5);');
    expect(lastUser(4)[0].content).toContain('1 test passed');
    for (const req of fake.messageRequests) {
      expect(toolResultsPaired(req.body.messages ?? [])).toBeNull();
      expect(countCacheBreakpoints(req.body)).toBeLessThanOrEqual(4);
      expect(countCacheBreakpoints(req.body)).toBeGreaterThanOrEqual(3);
    }
    const first = fake.messageRequests[0].body as { system: { text: string }[]; tools: { name: string }[] };
    expect(first.tools.map((t) => t.name)).toEqual([
      'bash',
      'read_file',
      'write_file',
      'edit_file',
      'glob',
      'grep',
      'spawn_agent',
    ]);
    expect(first.system[0].text).toContain(box.cwd.split('/').pop());
  });

  it('without --allow bash the refusal reaches the model and json lists it', async () => {
    scriptFix('I fixed the code but could not run the test: bash needs approval.');
    const r = await codey(box, [
      '-p',
      'make the test pass',
      '--allow',
      'edit_file',
      '--output-format',
      'json',
    ]);
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'I fixed the code but could not run the test: bash needs approval.',
      num_turns: 5,
      permission_denials: [
        { tool_name: 'bash', tool_input: { command: 'node test.js' }, reason: 'no_one_to_ask' },
      ],
    });
    expect(out.usage).toMatchObject({
      input_tokens: 500,
      output_tokens: 100,
      cache_read_input_tokens: expect.any(Number),
    });
    const refusal = lastUser(4)[0];
    expect(refusal.is_error).toBe(true);
    expect(refusal.content).toContain('--allow "bash(node test.js)"');
  });

  it('stream-json prints one JSON line per event, then the result', async () => {
    fake.enqueue(reply.text('hello there'));
    const r = await codey(box, ['-p', 'hi', '--output-format', 'stream-json']);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines[0].type).toBe('request_start');
    expect(lines.some((l) => l.type === 'text_delta')).toBe(true);
    expect(lines.at(-2)!.type).toBe('turn_end');
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'hello there' });
  });

  it('text output prints a Markdown table as the model wrote it, pipes and all', async () => {
    const table = '| Name | 说明 |\n| :--- | ---: |\n| `a|b` | **ok** 🚀 |\n| x \\| y |';
    fake.enqueue(reply.text(`Here:\n\n${table}\n\nDone.`));
    const r = await codey(box, ['-p', 'a table please']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`Here:\n\n${table}\n\nDone.`);
    expect(r.stdout).not.toMatch(/[┌│└]/);
  });

  it('appends piped stdin to the prompt', async () => {
    fake.enqueue(reply.text('looks fine'));
    await codey(box, ['-p', 'review this'], { input: 'diff --git a/x b/x\n+hello\n' });
    const content = fake.messageRequests[0].body.messages![0].content as Block[];
    expect(content[0].text).toBe('review this\n\ndiff --git a/x b/x\n+hello\n');
  });

  it('accepts the Go-style single-dash long flags', async () => {
    fake.enqueue(reply.text('ok'));
    const r = await codey(box, ['-print', 'hi', '-model', 'claude-sonnet-4-6', '-no-web', '-max-turns', '3']);
    expect(r.exitCode).toBe(0);
    expect(fake.messageRequests[0].body.model).toBe('claude-sonnet-4-6');
  });
});

describe('faults', () => {
  it('529 then success', async () => {
    fake.enqueue(fault.status(529, { retryAfter: 0 }), reply.text('recovered'));
    const r = await codey(box, ['-p', 'hi']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('recovered');
  });

  it('a stream cut mid-response, then success, prints the answer once', async () => {
    fake.enqueue(
      fault.cut(6, { reply: reply.text('partial words that must not show') }),
      reply.text('the complete answer'),
    );
    const r = await codey(box, ['-p', 'hi']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('the complete answer');
    expect(r.stderr).toMatch(/stream cut.*retrying/);
  });

  it('a 401 stops at once with a message that says what to do', async () => {
    fake.enqueue(fault.status(401, { message: 'invalid x-api-key' }), reply.text('never'));
    const r = await codey(box, ['-p', 'hi']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('the API key was refused');
    expect(r.stderr).toContain('ANTHROPIC_API_KEY');
    expect(fake.messageRequests).toHaveLength(1);
  });

  it('pause_turn is resent unchanged', async () => {
    fake.enqueue(reply.text('thinking about it', { stopReason: 'pause_turn' }), reply.text('done'));
    const r = await codey(box, ['-p', 'hi']);
    expect(r.stdout).toBe('thinking about itdone');
    const [, second] = fake.messageRequests;
    expect(second.body.messages).toHaveLength(2);
    expect((second.body.messages![1].content as Block[])[0]).toMatchObject({
      type: 'text',
      text: 'thinking about it',
    });
  });

  it('after pause_turn the answer is the whole assistant message, in text, json and stream-json', async () => {
    const halves = () =>
      fake.enqueue(
        reply.text('The first half, ', { stopReason: 'pause_turn' }),
        reply.text('and the second half.'),
      );
    const whole = 'The first half, and the second half.';
    halves();
    expect((await codey(box, ['-p', 'hi'])).stdout).toBe(whole);
    halves();
    const json = await codey(box, ['-p', 'hi', '--output-format', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ subtype: 'success', result: whole, num_turns: 2 });
    halves();
    const stream = await codey(box, ['-p', 'hi', '--output-format', 'stream-json']);
    const lines = stream.stdout.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.at(-2)).toMatchObject({ type: 'turn_end', text: whole });
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: whole });
  });

  it.each([
    ['empty content', reply.blocks([])],
    ['thinking only', reply.blocks([block.thinking('Nothing to add.')])],
  ])('a response with no text (%s) says there was no answer and exits 1', async (_, step) => {
    fake.enqueue(step);
    const text = await codey(box, ['-p', 'hi']);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain('codey: no answer: the model ended its turn without any text');
    fake.enqueue(step);
    const json = await codey(box, ['-p', 'hi', '--output-format', 'json']);
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      subtype: 'error_no_answer',
      is_error: true,
      result: '',
      stop_reason: 'end_turn',
      error: 'the model ended its turn without any text',
    });
  });

  it('a refusal shows the explanation the API gave: a stderr line in text mode, stop_details in json', async () => {
    const stopDetails = {
      type: 'refusal' as const,
      category: 'cyber',
      explanation: 'This request could enable malware development.',
    };
    const refuse = () => fake.enqueue(reply.blocks([], { stopReason: 'refusal', stopDetails }));
    refuse();
    const text = await codey(box, ['-p', 'hi']);
    expect(text.exitCode).toBe(1);
    expect(text.stderr).toContain(
      'codey: the model declined to answer (stop_reason: refusal, category cyber): This request could enable malware development.',
    );
    refuse();
    const json = await codey(box, ['-p', 'hi', '--output-format', 'json']);
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      subtype: 'error_refusal',
      is_error: true,
      stop_reason: 'refusal',
      stop_details: stopDetails,
    });
  });

  it('max turns reached exits 1', async () => {
    fake.respond(() => reply.toolUse('glob', { pattern: '*.js' }));
    const r = await codey(box, ['-p', 'loop', '--max-turns', '2', '--output-format', 'json']);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ subtype: 'error_max_turns', is_error: true, num_turns: 2 });
  });
});

describe('interruption', () => {
  it('SIGINT mid-stream keeps the partial answer on stdout and exits 130', async () => {
    const answer = reply.text('The first line.\nThen the rest of it, which never comes.', { chunkSize: 5 });
    fake.enqueue(fault.hang({ afterEvents: 8, reply: answer }));
    const child = codey(box, ['-p', 'tell me']);
    // Five 5-character deltas arrive with the response's start, then the stream stalls.
    for (let i = 0; i < 400 && fake.messageRequests.length === 0; i++)
      await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 1000));
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(r.stdout).toBe('The first line.\nThen the ');
    expect(r.stderr).toContain('codey: interrupting');
  });

  it('SIGINT reaches the running bash through the loop: the process group dies and codey exits 130', async () => {
    fake.enqueue(reply.toolUse('bash', { command: 'echo $$ > pid.txt; exec sleep 30' }), reply.text('never'));
    const child = codey(box, ['-p', 'run it', '--allow', 'bash', '--output-format', 'json']);
    const { existsSync } = await import('node:fs');
    const pidFile = join(box.cwd, 'pid.txt');
    for (let i = 0; i < 200 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 25));
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(() => process.kill(pid, 0)).not.toThrow();
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(JSON.parse(r.stdout)).toMatchObject({ subtype: 'interrupted', is_error: true });
    expect(fake.messageRequests).toHaveLength(1);
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    '%s mid-bash stops the turn like SIGINT: no process left, the log ends with the result, exit %i',
    async (signal, code) => {
      fake.enqueue(
        reply.toolUse('bash', { command: 'echo $$ > pid.txt; exec sleep 30' }),
        reply.text('never'),
      );
      const child = codey(box, ['-p', 'run it', '--allow', 'bash', '--output-format', 'json']);
      const { existsSync } = await import('node:fs');
      const pidFile = join(box.cwd, 'pid.txt');
      for (let i = 0; i < 200 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 25));
      const pid = Number((await readFile(pidFile, 'utf8')).trim());
      expect(() => process.kill(pid, 0)).not.toThrow();
      child.kill(signal);
      const r = await child;
      expect(r.exitCode).toBe(code);
      expect(() => process.kill(pid, 0)).toThrow();
      expect(JSON.parse(r.stdout)).toMatchObject({ subtype: 'interrupted', is_error: true });
      expect(r.stderr).toContain(signal);
      const log = (await sessionLogs(box))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; id?: string; status?: string });
      expect(log.find((e) => e.type === 'tool_end')).toMatchObject({ status: 'interrupted' });
      expect(log.at(-1)).toMatchObject({ type: 'session_result', subtype: 'interrupted' });
      expect(fake.messageRequests).toHaveLength(1);
    },
  );
});

describe('secrets', () => {
  it('the canary key appears in no output, log line or error, and only in the auth header', async () => {
    scriptFix();
    fake.enqueue(fault.status(401, { message: `bad key ${CANARY}` }));
    const r1 = await codey(box, [
      '-p',
      'fix it',
      '--allow',
      'edit_file,bash',
      '--verbose',
      '--output-format',
      'stream-json',
    ]);
    const r2 = await codey(box, ['-p', 'again', '--verbose']);
    const logs = await sessionLogs(box);
    const store = await sessionStore(box);
    expect(logs.length).toBeGreaterThan(100);
    expect(store.length).toBeGreaterThan(100);
    for (const text of [r1.stdout, r1.stderr, r2.stdout, r2.stderr, logs, store])
      expect(text).not.toContain(CANARY);
    for (const req of fake.messageRequests) {
      expect(req.raw).not.toContain(CANARY);
      expect(req.headers.authorization).toBe(`Bearer ${CANARY}`);
    }
    expect(r1.stderr).toMatch(/session log .*\.jsonl/);
  });
});

describe('secrets in tool output', () => {
  it('a file holding the key is read back with the key redacted, for the model, the output and the log', async () => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(box.cwd, 'leak.txt'), `token=${CANARY}\n`);
    fake.enqueue(
      reply.toolUse('read_file', { path: 'leak.txt' }),
      reply.toolUse('bash', { command: 'echo "[$ANTHROPIC_API_KEY]"' }),
      reply.text('ok'),
    );
    const r = await codey(box, ['-p', 'read it', '--allow', 'bash', '--output-format', 'stream-json']);
    expect(r.exitCode).toBe(0);
    expect(lastUser(1)[0].content).toContain('token=[redacted]');
    expect(lastUser(2)[0].content).toContain('[]'); // bash does not inherit the key
    for (const text of [
      r.stdout,
      r.stderr,
      await sessionLogs(box),
      ...fake.messageRequests.map((q) => q.raw),
    ]) {
      expect(text).not.toContain(CANARY);
    }
  });
});

describe('usage and configuration errors exit 2', () => {
  it('an unknown flag', async () => {
    expect((await codey(box, ['--frobnicate'])).exitCode).toBe(2);
  });
  it('a bad flag value says what is wrong', async () => {
    const turns = await codey(box, ['-p', 'hi', '--max-turns', '0']);
    expect(turns.exitCode).toBe(2);
    expect(turns.stderr).toContain('--max-turns 0 is not valid: expected a whole number of 1 or more');
    const url = await codey(box, ['-p', 'hi', '--base-url', 'not-a-url']);
    expect(url.exitCode).toBe(2);
    expect(url.stderr).toContain('--base-url "not-a-url" is not valid: expected an http:// or https:// URL');
    expect(url.stderr).not.toContain('ignored');
    expect(fake.messageRequests).toHaveLength(0);
  });
  it('a malformed config file names the file', async () => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(box.cwd, '.codeyrc.json'), '{ broken');
    const r = await codey(box, ['-p', 'hi']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(join(box.cwd, '.codeyrc.json'));
  });
  it('interactive mode without a terminal', async () => {
    const r = await codey(box, []);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('codey -p');
  });
  it('no setup wizard without a terminal: codey setup exits 2, and -p never runs it', async () => {
    const r = await codey(box, ['setup']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('`codey setup` needs a terminal');
    fake.enqueue(reply.text('no wizard here'));
    const p = await codey(box, ['-p', 'hi']);
    expect(p.stdout).toBe('no wizard here');
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(box.root, 'config', 'codey', 'config.json'))).toBe(false);
  });

  it('--version and --help exit 0', async () => {
    const v = await codey(box, ['--version']);
    expect(v.exitCode).toBe(0);
    expect(v.stdout).toMatch(/^\d+\.\d+\.\d+$/);
    const h = await codey(box, ['--help']);
    expect(h.exitCode).toBe(0);
    expect(h.stdout).toContain('--output-format');
  });
});

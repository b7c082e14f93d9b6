import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { Decision } from '../../../src/approval/types';
import { FakeController, usageOf } from '../fake-controller';
import { KEY, eventually } from '../helpers';
import { startApp } from './app-driver';

afterEach(() => cleanup());

const start = startApp;

/** The two status lines at the bottom. */
const status = (out: string) => out.split('\n').slice(-2).join('\n');

describe('turns', () => {
  it('streams text deltas into the live item and keeps the finished text', async () => {
    const { c, type, out, shows } = await start();
    await type('hi', KEY.enter);
    c.emit({ type: 'text_delta', text: 'Hello ' }, { type: 'text_delta', text: '**world**' });
    await shows('● Hello world');
    c.emit({ type: 'text', text: 'Hello **world**, done.' });
    c.endTurn('Hello **world**, done.');
    await shows('● Hello world, done.');
    expect(out().match(/Hello world/g)).toHaveLength(1);
  });

  it('shows a spinner with the model and the seconds waited until the first token arrives', async () => {
    const { c, type, out, shows } = await start();
    await type('hi', KEY.enter);
    await shows('Waiting for claude-test-1…');
    expect(out()).toMatch(/Waiting for claude-test-1… \d+s/);
    c.emit({ type: 'request_start', request: 1, model: 'claude-test-1' });
    c.emit({ type: 'text_delta', text: 'Hello' });
    await shows('● Hello');
    expect(out()).not.toContain('Waiting for');
    c.endTurn('Hello');
  });

  it('keeps one working line after the first token: through a pause and a tool, with the tokens so far', async () => {
    const { c, type, out, shows } = await start();
    await type('hi', KEY.enter);
    c.emit({ type: 'request_start', request: 1, model: 'claude-test-1' });
    c.emit({ type: 'text_delta', text: 'Hello there' });
    // 11 characters streamed, about 3 tokens until the response's usage says.
    await shows('↓ 3 tokens');
    expect(out()).toMatch(/⠋|⠙|⠹|⠸|⠼|⠴|⠦|⠧|⠇|⠏/);
    expect(out()).toMatch(/Working… \d+s · ↓ 3 tokens · esc to interrupt/);
    c.emit({ type: 'usage', usage: usageOf({ output_tokens: 40 }), total: usageOf({ output_tokens: 40 }) });
    await shows('↓ 40 tokens');
    c.emit({
      type: 'tool_start',
      id: 't1',
      name: 'bash',
      displayName: 'Bash',
      input: { command: 'sleep 9' },
      summary: 'sleep 9',
      detail: 'sleep 9',
    });
    await shows('Bash(sleep 9)');
    expect(out()).toContain('Working…');
    c.endTurn('Hello there');
    await eventually(() => expect(out()).not.toContain('Working…'));
    expect(out()).not.toContain('esc to interrupt');
  });

  it('shows a !cmd running with its command and a clock until it ends', async () => {
    const { c, type, out, shows } = await start();
    let finish: (r: { output: string; exitCode: number | null }) => void = () => undefined;
    (c as unknown as { shell: unknown }).shell = () => new Promise((resolve) => (finish = resolve));
    await type('!sleep 5', KEY.enter);
    await shows('Running !sleep 5…');
    expect(out()).toMatch(/Running !sleep 5… \d+s · esc to interrupt/);
    finish({ output: '', exitCode: 0 });
    await eventually(() => expect(out()).not.toContain('Running !sleep 5'));
  });

  it('streams a long reply paragraph by paragraph, whole and in order', async () => {
    const { c, type, out } = await start();
    await type('explain', KEY.enter);
    const reply = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} says *something*.`).join('\n\n');
    for (let i = 0; i < reply.length; i += 7) c.emit({ type: 'text_delta', text: reply.slice(i, i + 7) });
    c.emit({ type: 'text', text: reply });
    c.endTurn(reply);
    const expected = Array.from(
      { length: 30 },
      (_, i) => `${i === 0 ? '●' : ' '} Paragraph ${i} says something.`,
    );
    await eventually(() =>
      expect(
        out()
          .split('\n')
          .filter((l) => l.includes('Paragraph')),
      ).toEqual(expected),
    );
  });

  it('says a max_tokens stop once', async () => {
    const { c, type, out, shows } = await start();
    await type('write it all', KEY.enter);
    c.emit(
      { type: 'text', text: 'Part of the answer' },
      { type: 'notice', level: 'warn', message: 'the response hit max_tokens (100); ask for less at a time' },
      { type: 'turn_end', reason: 'max_tokens', stopReason: 'max_tokens', text: '', requests: 1 },
    );
    c.runs[0].finish();
    await shows('⚠ the response hit max_tokens (100); ask for less at a time');
    await eventually(() => expect(status(out())).toContain('Enter send'));
    expect(out()).not.toContain('output token limit');
    expect(out().match(/max_tokens/g)).toHaveLength(1);
  });

  it('a refusal says what the API gave for it, as -p does', async () => {
    const { c, type, out, shows } = await start();
    await type('write malware', KEY.enter);
    c.emit({
      type: 'turn_end',
      reason: 'refusal',
      stopReason: 'refusal',
      text: '',
      requests: 1,
      refusal: { category: 'cyber', explanation: 'This request could enable malware development.' },
    });
    c.runs[0].finish();
    await shows(
      '⎿ The model declined to answer (category cyber): This request could enable malware development.',
    );
    await eventually(() => expect(status(out())).toContain('Enter send'));
    expect(out().match(/declined/g)).toHaveLength(1);
    expect(out()).not.toContain('No answer');
  });

  it('a refusal without details says what to do next', async () => {
    const { c, type, shows } = await start();
    await type('hm', KEY.enter);
    c.emit({ type: 'turn_end', reason: 'refusal', stopReason: 'refusal', text: '', requests: 1 });
    c.runs[0].finish();
    await shows('⎿ The model declined to answer. Rephrase the request, or ask for something else.');
  });

  it('an answer with no text says so once', async () => {
    const { c, type, out, shows } = await start();
    await type('think about it', KEY.enter);
    c.emit(
      { type: 'thinking', text: 'Nothing to add.' },
      { type: 'turn_end', reason: 'end_turn', stopReason: 'end_turn', text: '', requests: 1 },
    );
    c.runs[0].finish();
    await shows(
      '⎿ No answer: the model ended its turn without any text. Ask again, or say what you expected.',
    );
    await eventually(() => expect(status(out())).toContain('Enter send'));
    expect(out().match(/No answer/g)).toHaveLength(1);
  });

  it('shows "Rejected" under a call the person refused, with what they told the model', async () => {
    const { c, type, shows } = await start();
    await type('clean', KEY.enter);
    const start1 = {
      type: 'tool_start' as const,
      id: 't1',
      name: 'bash',
      displayName: 'Bash',
      input: { command: 'rm -rf build' },
      summary: '',
      detail: 'rm -rf build',
    };
    c.emit(start1, {
      type: 'approval_decision',
      id: 't1',
      decision: { kind: 'deny_with_message', message: 'use git clean' },
      source: 'person',
    });
    c.emit({
      type: 'tool_end',
      id: 't1',
      name: 'bash',
      displayName: 'Bash',
      status: 'denied',
      output: 'The person refused this call and said: use git clean',
      durationMs: 1,
    });
    await shows('● Bash(rm -rf build)\n  ⎿ Rejected: use git clean');
  });

  it('shows start-up notices and notice events in the transcript', async () => {
    const c = new FakeController();
    c.notices = ['web provider "brave" has no BRAVE_API_KEY; web search is off'];
    const { shows } = await start(c);
    await shows('⚠ web provider "brave" has no BRAVE_API_KEY; web search is off');
    c.emit({ type: 'notice', level: 'warn', message: 'context is 90% full' });
    await shows('⚠ context is 90% full');
  });

  it('asks for approval in place of the input and returns the answer to the loop', async () => {
    const { c, type, out, shows } = await start();
    await type('clean up', KEY.enter);
    c.emit({
      type: 'tool_start',
      id: 't1',
      name: 'bash',
      displayName: 'Bash',
      input: { command: 'rm -rf build' },
      summary: 'Run a shell command',
      detail: 'rm -rf build',
    });
    const answer = c.ask({
      tool: 'bash',
      summary: 'Run a shell command',
      detail: 'rm -rf build',
      rememberable: true,
      noun: 'this command',
    });
    await shows('Bash: Run a shell command', '3. Yes, always for this command');
    await type('2');
    expect(await answer).toEqual<Decision>({ kind: 'allow_tool' });
    await eventually(() => expect(out()).not.toContain('Allow this?'));
    // The input has the keys again.
    await type('x');
    await shows('› x');
  });

  for (const [name, key] of [
    ['Esc', KEY.esc],
    ['Ctrl+C', KEY.ctrlC],
  ] as const) {
    it(`takes ${name} on the prompt as "stop the turn" and gives the person the input`, async () => {
      const { c, type, out, shows } = await start();
      await type('go', KEY.enter);
      const answer = c.ask({ tool: 'bash', detail: 'ls' }, c.runs[0].signal);
      await shows('Allow this?');
      await type(key);
      await eventually(() => expect(c.runs[0].signal.aborted).toBe(true));
      expect(await answer).toEqual({ kind: 'deny' });
      await eventually(() => expect(out()).not.toContain('Allow this?'));
      await type('next');
      await shows('› next');
      expect(status(out())).toContain('Enter send');
    });
  }

  it('withdraws the prompt as a deny when the turn is interrupted', async () => {
    const { c, type, out, shows } = await start();
    await type('go', KEY.enter);
    const answer = c.ask({ tool: 'bash', detail: 'ls' }, c.runs[0].signal);
    await shows('Allow this?');
    // Esc goes to the prompt (it means No there); the turn is interrupted from elsewhere.
    c.abortLatest();
    expect(await answer).toEqual({ kind: 'deny' });
    await eventually(() => expect(out()).not.toContain('Allow this?'));
  });

  it('shows a remembered answer as a dim line on the call', async () => {
    const { c, shows } = await start();
    c.emit(
      {
        type: 'tool_start',
        id: 't1',
        name: 'bash',
        displayName: 'Bash',
        input: { command: 'git status' },
        summary: '',
        detail: 'git status',
      },
      {
        type: 'approval_decision',
        id: 't1',
        decision: { kind: 'allow_detail' },
        source: 'rule',
        rule: 'bash: git status',
      },
      {
        type: 'tool_end',
        id: 't1',
        name: 'bash',
        displayName: 'Bash',
        status: 'done',
        output: 'clean',
        display: { kind: 'shell', command: 'git status', exitCode: 0, timedOut: false },
        durationMs: 5,
      },
    );
    await shows('● Bash(git status)\n  ⎿ allowed by rule bash: git status\n  ⎿ clean\n    exit 0');
  });

  it('shows an error when run rejects, and the session goes on', async () => {
    const c = new FakeController();
    c.run = () => Promise.reject(new Error('ANTHROPIC_API_KEY is not set'));
    const { type, out, shows } = await start(c);
    await type('hi', KEY.enter);
    await shows('✗ ANTHROPIC_API_KEY is not set');
    await eventually(() => expect(status(out())).toContain('Enter send'));
  });
});

describe('status line', () => {
  it('shows the model, the workspace under ~, tokens with the cache share and web status', async () => {
    const { c, shows } = await start();
    await shows('claude-test-1 · ~/src/proj · 0 in · 0 out · web: command');
    c.emit({
      type: 'usage',
      usage: usageOf(),
      total: usageOf({ input_tokens: 2000, cache_read_input_tokens: 6000, output_tokens: 512 }),
    });
    await shows('claude-test-1 · ~/src/proj · 8k in (75% cached) · 512 out · web: command');
  });

  it("shows how full the model's window is: the last request's input, cache reads and cache writes", async () => {
    const { c, out, shows } = await start();
    expect(status(out())).not.toContain('context');
    c.emit({
      type: 'usage',
      usage: usageOf(),
      total: usageOf({ input_tokens: 200_000 }),
      // 40,000 + 100,000 + 29,000 = 169,000 of 200,000 tokens: 84.5%.
      context: { tokens: 169_000, window: 200_000 },
    });
    await shows('200k in (0% cached) · 0 out · context 84% used · web: command');
    // A compaction's estimate stands until the next request reports.
    c.emit({
      type: 'compaction',
      trigger: 'auto',
      tokensBefore: 169_000,
      tokensAfter: 9_000,
      window: 200_000,
      replaced: 6,
      summary: 's',
      droppedMessages: 0,
    });
    await shows('context 4% used');
    // A summary request's usage says nothing about the window.
    c.emit({ type: 'usage', usage: usageOf(), total: usageOf({ input_tokens: 369_000 }) });
    await shows('369k in (0% cached) · 0 out · context 4% used');
  });

  it('shows the keys that matter while a turn runs', async () => {
    const { type, out } = await start();
    expect(status(out())).toContain('Ctrl+C twice to quit');
    await type('go', KEY.enter);
    await eventually(() => expect(status(out())).toContain('Esc interrupt'));
  });
});

describe('slash commands', () => {
  it('lists matching commands under the input and completes with Tab', async () => {
    const { type, out, shows } = await start();
    await type('/c');
    await shows('/clear', '/cost', '/compact');
    expect(out()).not.toContain('/model [NAME]');
    await type('os', KEY.tab);
    await shows('› /cost');
  });

  it('/clear starts a new conversation', async () => {
    const { c, type, shows } = await start();
    await type('/clear', KEY.enter);
    await shows('Started a new conversation.');
    expect(c.cleared).toBe(1);
  });

  it('/model without a name opens a picker: arrows and Enter choose, Esc leaves the model as it was', async () => {
    const { c, type, out, shows } = await start();
    await type('/model', KEY.enter);
    await shows('Model (now claude-test-1; /model NAME for any other)', '❯ 1. claude-test-1');
    expect(out()).toContain('2. claude-opus-4-8  most capable (default)');
    await type(KEY.esc);
    await eventually(() => expect(out()).not.toContain('Model (now'));
    expect(c.models).toEqual([]);
    await type('/model', KEY.enter);
    await shows('❯ 1. claude-test-1');
    await type(KEY.down, KEY.down, KEY.enter);
    await shows('Model set to claude-sonnet-4-6.');
    expect(c.models).toEqual(['claude-sonnet-4-6']);
    expect(status(out())).toContain('claude-sonnet-4-6 · ~/src/proj');
    // The input has the keys again.
    await type('x');
    await shows('› x');
  });

  it('/model NAME changes the model, shown in the status line', async () => {
    const { c, type, out } = await start();
    await type('/mo', KEY.tab, 'claude-other', KEY.enter);
    await eventually(() => expect(status(out())).toContain('claude-other · ~/src/proj'));
    expect(c.models).toEqual(['claude-other']);
  });

  it('/cost shows token counts and what they cost', async () => {
    const c = new FakeController();
    c.usageValue = usageOf({
      input_tokens: 1_000_000,
      output_tokens: 100_000,
      cache_read_input_tokens: 2_000_000,
    });
    c.spendValue = { dollars: 5.1, unpriced: [] };
    const { type, shows } = await start(c);
    await type('/cost', KEY.enter);
    await shows(
      'input tokens:        1,000,000',
      'output tokens:       100,000',
      'cache read tokens:   2,000,000',
      "cost:                $5.10 (each request at its model's price)",
    );
  });

  it('/cost says "price unknown" rather than $0.0000 when no model used has a known price', async () => {
    const c = new FakeController();
    c.spendValue = { dollars: 0, unpriced: ['claude-test-1'] };
    const { type, out, shows } = await start(c);
    await type('/cost', KEY.enter);
    await shows('cost:                price unknown (no price known for claude-test-1)');
    expect(out()).not.toContain('$0.0000');
  });

  it('/compact FOCUS compacts with that focus and says what it freed', async () => {
    const { c, type, shows } = await start();
    await type('/compact the parser tests', KEY.enter);
    await shows(
      'Compacted the conversation (/compact): 120,000 → about 8,000 tokens of the 200,000-token window.',
      'The model now sees the summary instead of the earlier messages',
    );
    expect(c.compactions).toEqual(['the parser tests']);
    c.compactError = 'the conversation is empty';
    await type('/compact', KEY.enter);
    await shows('Could not compact: the conversation is empty');
    expect(c.compactions).toEqual(['the parser tests', undefined]);
  });

  it('/compact keeps the session busy until it ends, and Esc interrupts it', async () => {
    const c = new FakeController();
    c.compactGate = new Promise(() => {});
    const { type, out, shows } = await start(c);
    await type('/compact', KEY.enter);
    await eventually(() => expect(status(out())).toContain('Esc interrupt'));
    await type('/clear', KEY.enter);
    await shows('⏳ queued: /clear');
    expect(c.cleared).toBe(0);
    await type(KEY.esc);
    await shows('Could not compact: interrupted; the conversation is as it was');
    await eventually(() => expect(status(out())).toContain('Enter send'));
    expect(out()).not.toContain('Compacted the conversation');
    // Interrupted, the queued command is not run: it is back in the input.
    await shows('› /clear', 'Interrupted: what you queued is back in the input; Enter sends it.');
    expect(out()).not.toContain('⏳ queued');
    expect(c.cleared).toBe(0);
  });

  it('/tools lists the tools and whether each asks', async () => {
    const { type, shows } = await start();
    await type('/tools', KEY.enter);
    await shows('Read      runs without asking', 'Bash      asks first', 'WebFetch  asks first');
  });

  it('/worktree warns that uncommitted changes stay in the tree the session came from', async () => {
    const c = new FakeController();
    c.worktreeUncommitted = 3;
    const { type, shows } = await start(c);
    await type('/worktree wip', KEY.enter);
    await shows('Note: 3 uncommitted changes stay behind; the worktree starts from the last commit.');
  });

  it('/worktree NAME moves the session and shows the new path', async () => {
    const { c, type, out, shows } = await start();
    await type('/worktree feat-x', KEY.enter);
    await shows('Now working in /home/ann/src/proj-worktrees/feat-x on branch feat-x.');
    expect(c.worktreeNames).toEqual(['feat-x']);
    expect(status(out())).toContain('~/src/proj-worktrees/feat-x');
  });

  it('/worktree main goes back: the status line shows the root, and the changes left are named once', async () => {
    const { c, type, out, shows } = await start();
    await type('/worktree feat-x', KEY.enter);
    await shows('on branch feat-x.');
    c.worktreeUncommitted = 2;
    await type('/worktree main', KEY.enter);
    await shows('Back in /home/ann/src/proj.');
    expect(out()).toContain(
      'Note: 2 uncommitted changes stay in the tree you left; they are there when you go back.',
    );
    expect(out().match(/uncommitted changes stay/g)).toHaveLength(1);
    expect(status(out())).toContain('~/src/proj ');
    expect(status(out())).not.toContain('proj-worktrees');
  });

  it('/worktree with no argument lists the worktrees and marks the current one', async () => {
    const { c, type, shows } = await start();
    await type('/worktree', KEY.enter);
    await shows(
      '* /home/ann/src/proj (main)  main',
      '  /home/ann/src/proj-worktrees/feat-x (codey/feat-x)',
      '/worktree NAME makes a new one and moves there; /worktree main goes back.',
    );
    expect(c.worktreeNames).toEqual([]);
  });

  it('queues a session-changing command typed while a turn runs, and runs it in order when the turn ends', async () => {
    const { c, type, out, shows } = await start();
    await type('go', KEY.enter, '/clear', KEY.enter, 'after the clear', KEY.enter);
    await shows('⏳ queued: /clear', '⏳ queued: after the clear');
    expect(c.cleared).toBe(0);
    expect(c.runs.map((r) => r.prompt)).toEqual(['go']);
    c.endTurn();
    // The command runs first, then the message after it goes to the new conversation.
    await eventually(() => expect(c.runs.map((r) => r.prompt)).toEqual(['go', 'after the clear']));
    expect(c.cleared).toBe(1);
    expect(out()).not.toContain('⏳ queued');
  });

  it('queues a session-changing command typed as a prefix, and runs /help at once, while a turn runs', async () => {
    const { c, type, shows } = await start();
    await type('go', KEY.enter, '/wor feat-x', KEY.enter);
    await shows('⏳ queued: /wor feat-x');
    await type('/help', KEY.enter);
    await shows('/exit', 'clear the screen and draw the session again');
    expect(c.worktreeNames).toEqual([]);
    c.endTurn();
    await eventually(() => expect(c.worktreeNames).toEqual(['feat-x']));
  });

  it('/exit quits', async () => {
    const { c, type } = await start();
    await type('/exit', KEY.enter);
    await eventually(() => expect(c.listenerCount).toBe(0));
  });

  it('/exit during a turn interrupts it first', async () => {
    const { c, type } = await start();
    await type('go', KEY.enter, '/exit', KEY.enter);
    expect(c.runs[0].signal.aborted).toBe(true);
    await eventually(() => expect(c.listenerCount).toBe(0));
  });

  it('/help lists the commands and keys', async () => {
    const { type, shows } = await start();
    await type('/help', KEY.enter);
    await shows(
      '/worktree [NAME]  move the session into a new git worktree and branch (main: back; no NAME: list)',
      'clear the screen and draw the session again',
    );
  });
});

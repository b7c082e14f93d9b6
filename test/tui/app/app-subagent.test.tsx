import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionController } from '../../../src/cli/controller';
import { createSession } from '../../../src/cli/session';
import { resolveSettings } from '../../../src/config/resolve';
import { App } from '../../../src/tui/app/App';
import {
  block,
  reply,
  startFakeAnthropic,
  type FakeAnthropic,
  type RecordedRequest,
} from '../../support/fake-anthropic';
import { FakeController } from '../fake-controller';
import { KEY, eventually, frame, mounted, tick } from '../helpers';

/** The app on the real agent with a subagent: its approval prompt, its block under the call. */
let fake: FakeAnthropic | undefined;
afterEach(async () => {
  cleanup();
  await fake?.close();
});

const systemOf = (r: RecordedRequest) =>
  typeof r.body.system === 'string'
    ? r.body.system
    : (r.body.system ?? []).map((b) => String(b.text)).join('');
const isChild = (r: RecordedRequest) => systemOf(r).includes('You are a subagent');
const steps = (r: RecordedRequest) => (r.body.messages ?? []).filter((m) => m.role === 'assistant').length;

async function start() {
  fake = await startFakeAnthropic();
  const root = await mkdtemp(join(tmpdir(), 'codey-tui-sub-'));
  const work = join(root, 'work');
  await mkdir(work);
  await writeFile(join(work, 'a.txt'), 'one\n');
  const env = {
    ANTHROPIC_API_KEY: 'sk-ant-test-0123456789',
    ANTHROPIC_BASE_URL: fake.url,
    XDG_STATE_HOME: join(root, 'state'),
    PATH: process.env.PATH,
  };
  const { settings } = await resolveSettings({ env, cwd: work, userFile: join(root, 'config.json') });
  const session = await createSession({ settings, cwd: work, env, version: 'test', noWeb: true });
  // Approvals are answered as soon as they show (the answer delay has its own test).
  const controller = Object.assign(
    new SessionController(session, settings, join(root, 'history.jsonl'), []),
    {
      answerDelayMs: 0,
    },
  );
  const app = render(<App controller={controller} home={root} />);
  await mounted(app.stdin);
  const type = async (...chunks: string[]) => {
    for (const chunk of chunks) {
      app.stdin.write(chunk);
      await tick(30);
    }
  };
  const out = () => frame(app.lastFrame);
  const shows = (...texts: string[]) =>
    eventually(() => {
      for (const t of texts) expect(out()).toContain(t);
    });
  return { fake, type, out, shows };
}

describe('a subagent in the app', () => {
  it("shows the child's prompt with its label; always for Bash answered there lets the parent's bash through", async () => {
    const t = await start();
    t.fake.respond((req) => {
      if (isChild(req))
        return steps(req) === 0
          ? reply.toolUse('bash', { command: 'echo from-child' })
          : reply.text('child ran echo');
      if (steps(req) === 0)
        return reply.blocks([
          block.toolUse('spawn_agent', { task: 'run echo', description: 'Echo checker' }),
        ]);
      if (steps(req) === 1) return reply.toolUse('bash', { command: 'echo from-parent' });
      return reply.text('All finished.');
    });
    await t.type('delegate', KEY.enter);
    // spawn_agent itself does not ask: the child's own bash does.
    await t.shows('Subagent "Echo checker" asks:', 'echo from-child', 'Yes, always for Bash');
    await t.type('2'); // always for Bash
    await t.shows('All finished.');
    // The parent's bash ran without a prompt: the answer holds for the whole session.
    const sent = t.fake.messageRequests.filter((r) => !isChild(r));
    expect(sent).toHaveLength(3);
    const last = sent[2].body.messages!.at(-1)!.content as { content: string }[];
    expect(last[0].content).toContain('from-parent');
    expect(t.out()).toMatch(/Agent\(Echo checker\)/);
    expect(t.out()).not.toContain('always for Agent');
    expect(t.out()).toMatch(/\[subagent [0-9a-f]{8}: 2 requests; tools: bash;/);
    // The child's text is its report, not the main transcript's.
    expect(t.out()).not.toContain('child ran echo');
  });
});

describe('questions from subagents running at once', () => {
  it('are shown one at a time, each with its label, and none is dropped', async () => {
    const c = new FakeController();
    const app = render(<App controller={c} home="/home/ann" />);
    await mounted(app.stdin);
    const out = () => frame(app.lastFrame);
    app.stdin.write('go');
    await tick();
    app.stdin.write(KEY.enter);
    await tick();
    const first = c.ask({ tool: 'bash', summary: 'Run: ls', detail: 'ls', agent: 'List files' });
    const second = c.ask({ tool: 'bash', summary: 'Run: pwd', detail: 'pwd', agent: 'Where am I' });
    await eventually(() => expect(out()).toContain('Subagent "List files" asks:'));
    expect(out().match(/Allow this\?/g)).toHaveLength(1);
    expect(out()).not.toContain('Where am I');
    app.stdin.write('y');
    expect(await first).toEqual({ kind: 'allow_once' });
    await eventually(() => expect(out()).toContain('Subagent "Where am I" asks:'));
    expect(out().match(/Allow this\?/g)).toHaveLength(1);
    app.stdin.write('n');
    expect(await second).toEqual({ kind: 'deny' });
  });
});

describe('the block of a running subagent', () => {
  it('shows its label, its current tool call nested under it, then the one-line result', async () => {
    const c = new FakeController();
    const app = render(<App controller={c} home="/home/ann" />);
    await mounted(app.stdin);
    const out = () => frame(app.lastFrame);
    app.stdin.write('go');
    await tick();
    app.stdin.write(KEY.enter);
    await tick();
    const child = { agentId: 'abcd1234', parentToolUseId: 't1' };
    c.emit(
      {
        type: 'tool_start',
        id: 't1',
        name: 'spawn_agent',
        displayName: 'Agent',
        input: {},
        summary: 'Find the loader',
        detail: 'find where the config is loaded and report the path',
        shows: 'subagent',
      },
      {
        type: 'tool_start',
        id: 'c1',
        name: 'grep',
        displayName: 'Grep',
        input: {},
        summary: 'g',
        detail: 'loadConfig',
        ...child,
      },
      { type: 'text_delta', text: 'child thinking aloud', ...child },
    );
    await eventually(() => expect(out()).toContain('Agent(Find the loader)'));
    await eventually(() => expect(out()).toContain('⎿ ▸ Grep(loadConfig)'));
    expect(out()).not.toContain('child thinking aloud');
    c.emit(
      {
        type: 'tool_end',
        id: 'c1',
        name: 'grep',
        displayName: 'Grep',
        status: 'done',
        output: 'x',
        durationMs: 1,
        ...child,
      },
      {
        type: 'tool_end',
        id: 't1',
        name: 'spawn_agent',
        displayName: 'Agent',
        status: 'done',
        output: 'src/config.ts\n\n[subagent abcd1234: 2 requests; tools: grep; 900 tokens]',
        title: '[subagent abcd1234: 2 requests; tools: grep; 900 tokens]',
        display: { kind: 'subagent', agentId: 'abcd1234', task: 'find' },
        durationMs: 1200,
      },
    );
    await eventually(() =>
      expect(out()).toContain('⎿ [subagent abcd1234: 2 requests; tools: grep; 900 tokens]'),
    );
    expect(out()).not.toContain('Grep(loadConfig)');
  });
});

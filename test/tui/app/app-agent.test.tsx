import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionController } from '../../../src/cli/controller';
import { createSession } from '../../../src/cli/session';
import { resolveSettings } from '../../../src/config/resolve';
import { App } from '../../../src/tui/app/App';
import {
  fault,
  reply,
  startFakeAnthropic,
  toolResultsPaired,
  type FakeAnthropic,
} from '../../support/fake-anthropic';
import { KEY, eventually, frame, mounted, tick } from '../helpers';

/**
 * The app on the real agent, tools and approval policy, against the fake Messages API server: what a
 * person sees and what reaches the model.
 */
const CANARY = 'sk-ant-canary-tui-0123456789ABCDEF';
let fake: FakeAnthropic | undefined;
afterEach(async () => {
  cleanup();
  await fake?.close();
});

async function start(opts: { git?: boolean; files?: Record<string, string> } = {}) {
  fake = await startFakeAnthropic();
  const root = await mkdtemp(join(tmpdir(), 'codey-tui-'));
  const work = join(root, 'work');
  await mkdir(work);
  await writeFile(join(work, 'a.txt'), 'one\n');
  for (const [name, text] of Object.entries(opts.files ?? {})) {
    await mkdir(join(work, name, '..'), { recursive: true });
    await writeFile(join(work, name), text);
  }
  if (opts.git) {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: work });
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-q', '-m', 'init');
  }
  const env = {
    ANTHROPIC_API_KEY: CANARY,
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
  /** Every frame rendered so far, without ANSI codes and with line breaks removed. */
  const frames = () => app.frames.map((f) => stripVTControlCharacters(f).replace(/\s*\n\s*/g, ''));
  const shows = (...texts: string[]) =>
    eventually(() => {
      for (const t of texts) expect(out()).toContain(t);
    });
  return { fake, work, root, type, out, frames, shows, session };
}

/** A command printing each piece as its own write, spelt in hex so the command shows none of them. */
function printInPieces(pieces: string[]): string {
  const hex = (p: string) => [...p].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join('');
  return [
    `printf 'before '`,
    ...pieces.map((p) => `printf '${hex(p)}'; sleep 0.1`),
    `printf ' after\\n'`,
  ].join('; ');
}

const lastResult = (f: FakeAnthropic, i: number) =>
  (f.messageRequests[i].body.messages!.at(-1)!.content as { type: string; content: string }[])[0];

/** git on PATH; without it the /worktree test skips, except under CI (which installs it). */
const hasGit = spawnSync('git', ['--version'], { stdio: 'ignore' }).status === 0;

describe('the app on the real agent', () => {
  it('streams text, asks for bash, runs it once approved, and shows the result', async () => {
    const t = await start();
    t.fake.enqueue(
      reply.toolUse('bash', { command: 'echo hello-from-bash' }, { before: 'I will run it.' }),
      reply.text('The command printed hello-from-bash.'),
    );
    await t.type('run the echo', KEY.enter);
    await t.shows('I will run it.', 'echo hello-from-bash', 'Yes, always for Bash');
    expect(t.fake.messageRequests).toHaveLength(1); // nothing runs before the answer
    await t.type(KEY.enter); // "Yes" is the first choice
    await t.shows('The command printed hello-from-bash.');
    expect(lastResult(t.fake, 1).content).toContain('hello-from-bash');
    expect(t.out()).not.toContain(CANARY);
  });

  it('never shows a key that a command prints a few characters at a time', async () => {
    const t = await start();
    const pieces = CANARY.match(/.{1,6}/g) ?? [];
    t.fake.enqueue(reply.toolUse('bash', { command: printInPieces(pieces) }), reply.text('Printed.'));
    await t.type('print it', KEY.enter);
    await t.shows('Yes, always for Bash');
    await t.type(KEY.enter);
    await t.shows('Printed.', 'before [redacted] after');
    for (const f of t.frames()) for (const piece of pieces) expect(f).not.toContain(piece);
  });

  it('Esc during a running bash stops the process, and the conversation goes on', async () => {
    const t = await start();
    t.fake.enqueue(
      reply.toolUse('bash', { command: 'echo $$ > pid.txt; exec sleep 30' }),
      reply.text('Carrying on.'),
    );
    await t.type('start it', KEY.enter);
    await t.shows('Yes, always for Bash');
    await t.type(KEY.enter);
    await eventually(() => expect(existsSync(join(t.work, 'pid.txt'))).toBe(true));
    const pid = Number((await readFile(join(t.work, 'pid.txt'), 'utf8')).trim());
    expect(() => process.kill(pid, 0)).not.toThrow();
    await t.type(KEY.esc);
    await eventually(() => expect(() => process.kill(pid, 0)).toThrow());
    await eventually(() => expect(t.session.conversation.messages.at(-1)?.role).toBe('user'));
    expect(toolResultsPaired(t.session.conversation.messages)).toBeNull();

    await t.type('go on', KEY.enter);
    await t.shows('Carrying on.');
    // The fake refuses (400) a request with an unpaired tool_use, so this request was valid.
    expect(t.fake.messageRequests).toHaveLength(2);
    const sent = t.fake.messageRequests[1].body.messages!.at(-1)!.content as {
      type: string;
      content?: string;
    }[];
    expect(sent[0]).toMatchObject({ type: 'tool_result' });
    // One interrupt text, in one word: what bash printed (nothing) and what became of it follow.
    expect(sent[0].content).toBe(
      'Interrupted by the person while the tool ran; it was stopped.\n(no output)\nthe process group was killed',
    );
  });

  it('Esc during bash keeps on screen what the command printed so far', async () => {
    const t = await start();
    // The command line does not contain the words it prints.
    const command = "printf 'step-%s-done\\n' one two three four five; exec sleep 30";
    t.fake.enqueue(reply.toolUse('bash', { command }));
    await t.type('build', KEY.enter);
    await t.shows('Yes, always for Bash');
    await t.type(KEY.enter);
    // What may hold the start of a secret is held back while it runs, and shown when it stops.
    await t.shows('⎿ step-one-done');
    await t.type(KEY.esc);
    await t.shows('Interrupted');
    expect(t.out()).toContain(
      '⎿ step-one-done\n    step-two-done\n    step-three-done\n    step-four-done\n    step-five-done',
    );
    // Said once, under the call, with what to do next.
    await t.shows('Ask codey');
    expect(t.out().match(/Interrupted/g)).toHaveLength(1);
    expect(t.out()).toContain('  ⎿ Interrupted. Tell codey what to do instead.\n  ⎿ step-one-done');
  });

  it('Esc at an approval prompt stops the turn: the call is answered as interrupted, the input is back', async () => {
    const t = await start();
    t.fake.enqueue(reply.toolUse('bash', { command: 'touch ran.txt' }), reply.text('Should not come.'));
    await t.type('make it', KEY.enter);
    await t.shows('Yes, always for Bash');
    await t.type(KEY.esc);
    await eventually(() => expect(t.out()).not.toContain('Allow this?'));
    await t.shows('Interrupted');
    await tick(100);
    // The model was not asked to carry on by itself, and nothing ran.
    expect(t.fake.messageRequests).toHaveLength(1);
    expect(existsSync(join(t.work, 'ran.txt'))).toBe(false);
    expect(t.out()).not.toContain('Should not come.');

    await t.type('do something else', KEY.enter);
    await t.shows('Should not come.');
    const sent = t.fake.messageRequests[1].body.messages!.at(-1)!.content as {
      type: string;
      content?: string;
      text?: string;
    }[];
    expect(sent[0]).toMatchObject({
      type: 'tool_result',
      content: 'Interrupted by the person while asking for approval; it was not run.',
      is_error: true,
    });
    expect(sent.at(-1)).toMatchObject({ type: 'text', text: 'do something else' });
  });

  it('keeps an answer interrupted mid-stream in the conversation, marked, and sends it next time', async () => {
    const t = await start();
    t.fake.enqueue(
      // message_start, ping, content_block_start, then two deltas: "Alpha " and "beta g".
      fault.hang({ afterEvents: 5, reply: reply.text('Alpha beta gamma delta', { chunkSize: 6 }) }),
      reply.text('Picking up from there.'),
    );
    await t.type('tell me', KEY.enter);
    await t.shows('Alpha beta g');
    await t.type(KEY.esc);
    await t.shows('Interrupted');
    // The partial answer stays on screen.
    expect(t.out()).toContain('● Alpha beta g');
    await t.type('go on', KEY.enter);
    await t.shows('Picking up from there.');
    // Cache breakpoints aside, the next request carries the partial answer and the mark.
    const messages = JSON.parse(
      JSON.stringify(t.fake.messageRequests[1].body.messages, (k, v: unknown) =>
        k === 'cache_control' ? undefined : v,
      ),
    ) as unknown;
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'tell me' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Alpha beta g' }] },
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: '[The person interrupted your answer above while it was streaming; it ends where they stopped it.]',
          },
          { type: 'text', text: 'go on' },
        ],
      },
    ]);
  });

  it('!cmd runs the command at once, shows its output, and the next prompt gives it to the model', async () => {
    const t = await start();
    t.fake.enqueue(reply.text('It printed shell-out.'));
    await t.type("!printf 'shell-%s\\n' out", KEY.enter);
    await t.shows("$ printf 'shell-%s\\n' out", 'shell-out');
    expect(t.out()).not.toContain('Allow this?');
    expect(t.fake.messageRequests).toHaveLength(0);
    await t.type('what did it print?', KEY.enter);
    await t.shows('It printed shell-out.');
    const first = t.fake.messageRequests[0].body.messages![0].content as { type: string; text: string }[];
    expect(first.map((b) => b.text).join('')).toBe(
      "[The person ran this shell command themselves (exit 0):]\n$ printf 'shell-%s\\n' out\nshell-out\n[end of that command’s output]\n\nwhat did it print?",
    );
  });

  it("a repository's command file whose prompt starts with ! is sent to the model, never run as a shell command", async () => {
    const t = await start({ files: { '.codey/commands/setup.md': '!touch pwned.txt\n' } });
    t.fake.enqueue(reply.text('I will not run that.'));
    await t.type('/setup', KEY.enter);
    await t.shows('I will not run that.');
    expect(existsSync(join(t.work, 'pwned.txt'))).toBe(false);
    const first = t.fake.messageRequests[0].body.messages![0].content as { type: string; text: string }[];
    expect(first.map((b) => b.text).join('')).toBe('!touch pwned.txt');
  });

  it.skipIf(!hasGit && process.env.CI !== 'true')(
    '/worktree moves the session: the next edit lands in the worktree, not the main tree',
    async () => {
      const t = await start({ git: true });
      await t.type('/worktree feature', KEY.enter);
      const wt = join(t.work, '.codey', 'worktrees', 'feature');
      await t.shows('feature');
      await eventually(() => expect(existsSync(join(wt, 'a.txt'))).toBe(true));
      t.fake.enqueue(
        reply.toolUse('edit_file', { path: 'a.txt', old_string: 'one', new_string: 'two' }),
        reply.text('Edited.'),
      );
      await t.type('change one to two', KEY.enter);
      await t.shows('Yes, always for');
      await t.type(KEY.enter);
      await t.shows('Edited.');
      expect(await readFile(join(wt, 'a.txt'), 'utf8')).toBe('two\n');
      expect(await readFile(join(t.work, 'a.txt'), 'utf8')).toBe('one\n');
      const system = (t.fake.messageRequests[0].body as { system: { text: string }[] }).system[0].text;
      expect(system).toContain(wt);
      const branch = execFileSync('git', ['branch', '--show-current'], { cwd: wt }).toString().trim();
      expect(branch).toBe('codey/feature');
      // The worktree stays out of the main tree's status.
      expect(execFileSync('git', ['status', '--porcelain'], { cwd: t.work }).toString()).toBe('');
    },
  );
});

describe('a prompt on the command line', () => {
  it('is submitted once when the app starts', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue(reply.text('Answer to the first prompt.'));
    const root = await mkdtemp(join(tmpdir(), 'codey-tui-'));
    const env = {
      ANTHROPIC_API_KEY: CANARY,
      ANTHROPIC_BASE_URL: fake.url,
      XDG_STATE_HOME: join(root, 'state'),
    };
    const { settings } = await resolveSettings({ env, cwd: root, userFile: join(root, 'config.json') });
    const session = await createSession({ settings, cwd: root, env, version: 'test', noWeb: true });
    // Approvals are answered as soon as they show (the answer delay has its own test).
    const controller = Object.assign(
      new SessionController(session, settings, join(root, 'history.jsonl'), []),
      {
        answerDelayMs: 0,
      },
    );
    const app = render(<App controller={controller} home={root} initialPrompt="what is this repo?" />);
    await eventually(() => expect(frame(app.lastFrame)).toContain('Answer to the first prompt.'));
    expect(frame(app.lastFrame)).toContain('what is this repo?');
    await tick(100);
    expect(fake.messageRequests).toHaveLength(1);
  });
});

describe('/cost and /tools on the real session', () => {
  it('/cost prices each request at the model that served it; /tools reflects an "always" answer', async () => {
    const t = await start();
    // The fake reports 100 input and 20 output tokens a request.
    t.fake.enqueue(
      reply.toolUse('bash', { command: 'true' }),
      reply.text('first done'),
      reply.text('second done'),
    );
    await t.type('one', KEY.enter);
    await t.shows('Yes, always for Bash');
    await t.type('2'); // always for Bash
    await t.shows('first done');
    // The text shows before the response's stream ends: wait for the turn to end (the idle keys).
    await t.shows('Enter send');
    await t.type('/tools', KEY.enter);
    await eventually(() => expect(t.out()).toMatch(/Bash\s+runs without asking/));
    expect(t.out()).toMatch(/EditFile\s+asks first/);
    await t.type('/model claude-sonnet-4-6', KEY.enter);
    await t.shows('Model set to claude-sonnet-4-6.');
    await t.type('two', KEY.enter);
    await t.shows('second done');
    // As above: the turn ends (and its usage is counted) after its text shows.
    await t.shows('Enter send');
    await t.type('/cost', KEY.enter);
    // 2 requests on claude-opus-4-8 ($5/$25): $0.0020; 1 on claude-sonnet-4-6 ($3/$15): $0.0006.
    await t.shows("$0.0026 (each request at its model's price)");
  });
});

describe('approving an edit', () => {
  it('shows the diff before the answer, and nothing changes until yes', async () => {
    const t = await start();
    t.fake.enqueue(
      reply.toolUse('edit_file', { path: 'a.txt', old_string: 'one', new_string: 'two' }),
      reply.text('Done.'),
    );
    await t.type('edit it', KEY.enter);
    await t.shows('Allow this?', '1 - one', '1 + two');
    expect(await readFile(join(t.work, 'a.txt'), 'utf8')).toBe('one\n');
    await t.type(KEY.enter);
    await t.shows('Done.');
    expect(await readFile(join(t.work, 'a.txt'), 'utf8')).toBe('two\n');
  });

  it('an edit that cannot apply fails without asking the person', async () => {
    const t = await start();
    t.fake.enqueue(
      reply.toolUse('edit_file', { path: 'a.txt', old_string: 'zzz', new_string: 'two' }),
      reply.text('I will re-read the file.'),
    );
    await t.type('edit it', KEY.enter);
    await t.shows('I will re-read the file.');
    expect(t.out()).not.toContain('Allow this?');
    expect(lastResult(t.fake, 1).content).toMatch(/^old_string was not found in a\.txt/);
  });
});

describe('/compact on the real session', () => {
  it('asks the model for a summary with the focus, shows the figures and the window, and goes on from the summary', async () => {
    const t = await start();
    t.fake.enqueue(reply.text('first answer', { usage: { input_tokens: 50_000 } }));
    await t.type('one', KEY.enter);
    await t.shows('first answer');
    await t.shows('context 25% used', 'Enter send');
    t.fake.enqueue(reply.text('SUMMARY of the session'));
    await t.type('/compact the failing test', KEY.enter);
    await t.shows('Compacted the conversation (/compact): 50,000 → about');
    const asked = JSON.stringify(t.fake.messageRequests[1].body.messages);
    expect(asked).toContain('give it the most detail: the failing test');
    t.fake.enqueue(reply.text('second answer'));
    await t.shows('Enter send');
    await t.type('two', KEY.enter);
    await t.shows('second answer');
    const next = t.fake.messageRequests[2].body.messages!;
    expect(next).toHaveLength(1);
    expect(JSON.stringify(next[0])).toContain('SUMMARY of the session');
    expect(JSON.stringify(next[0])).not.toContain('first answer');
  });
});

import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, Decision } from '../../../src/approval/types';
import { ApprovalPrompt, approvalChoices } from '../../../src/tui/approval/ApprovalPrompt';
import { KEY, eventually, frame, mounted, tick } from '../helpers';

afterEach(() => cleanup());

const bash: ApprovalRequest = {
  tool: 'bash',
  kind: 'execute',
  summary: 'Run a shell command',
  detail: 'rm -rf build',
  rememberable: true,
  noun: 'this command',
};
const fetchReq: ApprovalRequest = {
  tool: 'web_fetch',
  kind: 'execute',
  summary: 'Fetch a page',
  detail: 'https://docs.rs/x',
  rememberable: true,
  noun: 'this URL',
  domain: 'docs.rs',
};
const search: ApprovalRequest = {
  tool: 'web_search',
  kind: 'execute',
  summary: 'Search the web',
  detail: 'ink static',
  rememberable: false,
};

/** Renders the prompt, sends `keys` one write each, returns the decisions and the last frame. */
async function answer(request: ApprovalRequest, displayName: string, ...keys: string[]) {
  const decisions: (Decision | 'interrupt')[] = [];
  const app = render(
    <ApprovalPrompt
      answerDelayMs={0}
      request={request}
      displayName={displayName}
      onDecision={(d) => decisions.push(d)}
      onInterrupt={() => decisions.push('interrupt')}
    />,
  );
  await mounted(app.stdin);
  for (const k of keys) {
    app.stdin.write(k);
    await tick();
  }
  return { decisions, out: () => frame(app.lastFrame) };
}

describe('ApprovalPrompt', () => {
  it('shows the tool, its summary, its detail and numbered choices', async () => {
    const { out: shown } = await answer(bash, 'Bash');
    const out = shown();
    expect(out).toContain('Bash: Run a shell command');
    expect(out).toContain('rm -rf build');
    expect(out).toContain('❯ 1. Yes');
    expect(out).toContain('2. Yes, always for Bash');
    expect(out).toContain('3. Yes, always for this command');
    expect(out).toContain('4. No');
    expect(out).toContain('5. No, and tell the model what to do instead');
  });

  it('names the command once when the summary only repeats it', async () => {
    const { out } = await answer({ ...bash, summary: 'Run: npm test', detail: 'npm test' }, 'Bash');
    const lines = out().split('\n');
    expect(lines[1]).toBe('│ Bash');
    expect(out().match(/npm test/g)).toHaveLength(1);
    expect(out()).toMatch(/^│ {3}npm test$/m);
  });

  it('gives each choice its Decision by digit', async () => {
    const expected: Decision['kind'][] = ['allow_once', 'allow_tool', 'allow_detail', 'deny'];
    for (const [i, kind] of expected.entries()) {
      const { decisions } = await answer(bash, 'Bash', String(i + 1));
      expect(decisions).toEqual([{ kind }]);
    }
  });

  it('moves with the arrows and chooses with Enter', async () => {
    expect((await answer(bash, 'Bash', KEY.down, KEY.down, KEY.enter)).decisions).toEqual([
      { kind: 'allow_detail' },
    ]);
    expect((await answer(bash, 'Bash', KEY.up, KEY.up, KEY.enter)).decisions).toEqual([{ kind: 'deny' }]);
  });

  it('takes y for yes once and n for no; Esc and Ctrl+C stop the turn instead of answering', async () => {
    expect((await answer(bash, 'Bash', 'y')).decisions).toEqual([{ kind: 'allow_once' }]);
    expect((await answer(bash, 'Bash', 'n')).decisions).toEqual([{ kind: 'deny' }]);
    expect((await answer(bash, 'Bash', KEY.esc)).decisions).toEqual(['interrupt']);
    expect((await answer(bash, 'Bash', KEY.ctrlC, 'y')).decisions).toEqual(['interrupt']);
    // In the text box Esc goes back to the choices; Ctrl+C still stops the turn.
    expect((await answer(bash, 'Bash', '5', 'ab', KEY.ctrlC)).decisions).toEqual(['interrupt']);
    const { out } = await answer(bash, 'Bash');
    expect(out()).toContain('n no · Esc interrupts');
  });

  it('moves the highlight to the choice a digit picks', async () => {
    const { out, decisions } = await answer(bash, 'Bash', '5');
    expect(decisions).toEqual([]);
    expect(out()).toContain('❯ 5. No, and tell the model what to do instead');
    expect(out()).not.toContain('❯ 1. Yes');
  });

  it('returns the text to tell the model with the refusal', async () => {
    const { decisions } = await answer(bash, 'Bash', '5', 'use git clean instead', KEY.enter);
    expect(decisions).toEqual([{ kind: 'deny_with_message', message: 'use git clean instead' }]);
  });

  it('lets Esc leave the text box for the choices, without answering', async () => {
    const { decisions, out } = await answer(bash, 'Bash', '5', 'abc', KEY.esc);
    expect(decisions).toEqual([]);
    await eventually(() => expect(out()).not.toContain('Tell the model:'));
    expect(out()).toContain('❯ 5. No, and tell the model what to do instead');
  });

  it('has no detail choice when the detail is not rememberable', async () => {
    const { out, decisions } = await answer(search, 'WebSearch', '3');
    expect(out()).not.toContain('always for this');
    expect(approvalChoices(search, 'WebSearch').map((c) => c.label)).toEqual([
      'Yes',
      'Yes, always for WebSearch',
      'No',
      'No, and tell the model what to do instead',
    ]);
    expect(decisions).toEqual([{ kind: 'deny' }]);
  });

  it('offers "yes, with network" for a sandboxed command that did not ask for it', async () => {
    const sandboxed = { ...bash, sandboxed: true };
    const { out, decisions } = await answer(sandboxed, 'Bash', '2');
    expect(out()).toContain('2. Yes, with network');
    expect(decisions).toEqual([{ kind: 'allow_network' }]);
    const asking = approvalChoices({ ...sandboxed, network: true }, 'Bash').map((c) => c.label);
    expect(asking).not.toContain('Yes, with network');
    expect(approvalChoices(bash, 'Bash').map((c) => c.label)).not.toContain('Yes, with network');
  });

  it('offers "yes, outside the sandbox" for a sandboxed command, by its digit', async () => {
    const sandboxed = { ...bash, sandboxed: true };
    const { out, decisions } = await answer(sandboxed, 'Bash', '3');
    expect(out()).toContain('3. Yes, outside the sandbox');
    expect(decisions).toEqual([{ kind: 'allow_unsandboxed' }]);
    const networked = await answer({ ...sandboxed, network: true }, 'Bash', '2');
    expect(networked.out()).toContain('2. Yes, outside the sandbox');
    expect(networked.decisions).toEqual([{ kind: 'allow_unsandboxed' }]);
    expect(approvalChoices(bash, 'Bash').map((c) => c.label)).not.toContain('Yes, outside the sandbox');
  });

  it('offers "always for DOMAIN" only when the request names a domain', async () => {
    const { out, decisions } = await answer(fetchReq, 'WebFetch', '4');
    expect(out()).toContain('3. Yes, always for this URL');
    expect(out()).toContain('4. Yes, always for docs.rs');
    expect(decisions).toEqual([{ kind: 'allow_domain' }]);
    expect(approvalChoices(bash, 'Bash').some((c) => c.decision?.kind === 'allow_domain')).toBe(false);
  });

  it("names the rememberable detail with the tool's own noun, whatever the tool is called", () => {
    const job: ApprovalRequest = { ...bash, tool: 'mcp__ci__run_job', noun: 'this job' };
    expect(approvalChoices(job, 'McpCiRunJob')[2].label).toBe('Yes, always for this job');
    const plain: ApprovalRequest = { ...bash, noun: undefined };
    expect(approvalChoices(plain, 'Bash')[2].label).toBe('Yes, always for this exact call');
  });
});

describe('ApprovalPrompt with keys in one read', () => {
  it('applies each key of a chunk in turn', async () => {
    expect((await answer(bash, 'Bash', `${KEY.down}${KEY.down}${KEY.enter}`)).decisions).toEqual([
      { kind: 'allow_detail' },
    ]);
  });

  it('answers once, even when more keys follow', async () => {
    expect((await answer(bash, 'Bash', 'y', 'n', KEY.enter)).decisions).toEqual([{ kind: 'allow_once' }]);
  });

  it('sends the text to tell the model when it arrives with its Enter (tmux send-keys, a fast typist)', async () => {
    const { decisions } = await answer(bash, 'Bash', '5', 'use make\r');
    expect(decisions).toEqual([{ kind: 'deny_with_message', message: 'use make' }]);
  });

  it('edits the text to tell the model with keys that arrive in one read, and drops pasted controls', async () => {
    const { decisions, out } = await answer(
      bash,
      'Bash',
      '5',
      'use makx\u007fe',
      '\u001B[200~\tclean\u0007\u001B[2J\u001B[201~',
    );
    await eventually(() => expect(out()).toMatch(/Tell the model: use make clean/));
    expect(frame(() => out())).not.toMatch(/[\u0007\t]/);
    expect(decisions).toEqual([]);
  });

  it('adds to the text already typed before the chunk with its Enter', async () => {
    const { decisions } = await answer(bash, 'Bash', '5', 'use ', 'make clean\r');
    expect(decisions).toEqual([{ kind: 'deny_with_message', message: 'use make clean' }]);
  });

  it('keeps a bracketed paste with line breaks as text (joined by spaces) until Enter', async () => {
    const { decisions, out } = await answer(bash, 'Bash', '5', '\u001B[200~use make\rthen test\r\u001B[201~');
    expect(decisions).toEqual([]);
    await eventually(() => expect(out()).toContain('Tell the model: use make then test'));
    expect(out()).not.toContain('200~');
  });
});

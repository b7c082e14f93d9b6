import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dispatch, type DispatchDeps } from '../../src/agent/dispatch';
import type { AgentEvent } from '../../src/agent/events';
import { redactingStream } from '../../src/util/redact';
import { Policy } from '../../src/approval/policy';
import { toolsIn } from '../../src/tools/factory';
import { Registry } from '../../src/tools/registry';
import { defineTool, ToolError } from '../../src/tools/tool';
import { MAX_OUTPUT_CHARS } from '../../src/tools/truncate';
import { QuestionQueue } from '../../src/agent/approval-gate';

/** 10 MB of model input: what a runaway tool call can carry. */
const HUGE = 'x'.repeat(10_000_000);
/** Every tool_result quoting such input stays this short: the quote is cut, the advice is kept. */
const SHORT = 1_000;

let dir: string;
let registry: Registry;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), 'codey-dispatch-')));
  await writeFile(path.join(dir, 'a.txt'), 'alpha\n');
  registry = await toolsIn({
    settings: { webProvider: 'none', webFetch: 'none', version: 'test' },
    env: {},
  });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function deps(events: AgentEvent[] = []): DispatchDeps {
  return {
    registry,
    policy: new Policy(),
    questions: new QuestionQueue(),
    cwd: dir,
    state: { memo: new Map() },
    emit: (e) => events.push(e),
    denials: [],
    scrub: (t) => t,
    scrubStream: () => redactingStream([]),
  };
}

const run = (name: string, input: unknown, events: AgentEvent[] = []) =>
  dispatch({ id: 'toolu_1', name, input }, deps(events), new AbortController().signal);

describe('dispatch caps what it echoes', () => {
  it('a 10 MB path to read_file comes back as a short error', async () => {
    const r = await run('read_file', { path: HUGE });
    expect(r.is_error).toBe(true);
    expect(r.content.length).toBeLessThan(SHORT);
    expect(r.content).toMatch(/^path "x+… \[9999800 chars cut\]" is 10,000,000 bytes long; no file can/);
  });

  it('a 5 MB path of short components answers at once, before any rule or file-system call', async () => {
    const events: AgentEvent[] = [];
    const r = await run('read_file', { path: 'p/'.repeat(2_500_000) }, events);
    expect(r.is_error).toBe(true);
    expect(r.content.length).toBeLessThan(400);
    expect(r.content).toContain('5,000,000 bytes long');
    expect(events.some((e) => e.type === 'approval_decision')).toBe(false);
    for (const name of ['write_file', 'edit_file', 'glob', 'grep']) {
      const args = {
        path: 'p/'.repeat(2_500_000),
        content: '',
        old_string: 'a',
        new_string: 'b',
        pattern: 'x',
      };
      const other = await run(name, args);
      expect(other.content, name).toContain('5,000,000 bytes long');
    }
    // The refusal comes from `check`: the tool's own run, where the file system is, never starts.
    let ran = false;
    const spied = { ...registry.get('read_file')!, run: async () => ((ran = true), '') };
    const d = { ...deps(), registry: new Registry([spied]) };
    const again = await dispatch(
      { id: 't2', name: 'read_file', input: { path: 'p/'.repeat(2_500_000) } },
      d,
      new AbortController().signal,
    );
    expect(again.content).toContain('5,000,000 bytes long');
    expect(ran).toBe(false);
  });

  it('a 10 MB regex to grep comes back as a short error that says how to fix it', async () => {
    const r = await run('grep', { pattern: `(${HUGE}` });
    expect(r.is_error).toBe(true);
    expect(r.content.length).toBeLessThan(SHORT);
    expect(r.content).toMatch(
      /^invalid regular expression \(x{199}… \[9999801 chars cut\]: .*: Unterminated group; escape special/,
    );
  });

  it('a 10 MB invalid argument or tool name comes back as a short error', async () => {
    const upward = await run('glob', { pattern: `../${HUGE}` });
    expect(upward.is_error).toBe(true);
    expect(upward.content.length).toBeLessThan(SHORT);
    expect(upward.content).toMatch(
      /^pattern \.\.\/x{197}… \[9999803 chars cut\] goes up with "\.\."; pass the folder/,
    );

    const unknown = await run(HUGE, {});
    expect(unknown.content.length).toBeLessThan(SHORT);
    expect(unknown.content).toMatch(/^unknown tool "x{200}… \[9999800 chars cut\]"; the tools are: bash, /);
  });

  it('a refusal that names the call keeps the command short', async () => {
    const events: AgentEvent[] = [];
    const r = await run('bash', { command: HUGE }, events);
    expect(r.is_error).toBe(true);
    expect(r.content.length).toBeLessThan(SHORT);
    expect(r.content).toMatch(/--allow "bash\(x{200}… \[9999800 chars cut\]\)"/);
    const start = events.find((e) => e.type === 'tool_start');
    expect(start?.type === 'tool_start' && start.summary.length).toBeLessThan(SHORT * 3);
  });

  it('cuts a 10 MB word a tool error echoes (a host name from the web layer), keeping the advice', async () => {
    const echo = defineTool({
      name: 'echoes',
      kind: 'read',
      description: 'Fails quoting its input.',
      schema: z.object({ host: z.string() }),
      run: async ({ host }) => {
        throw new ToolError(`could not resolve ${host} (ENOTFOUND): check the host name.`);
      },
    });
    const r = await dispatch(
      { id: 'toolu_3', name: 'echoes', input: { host: HUGE } },
      { ...deps(), registry: new Registry([echo]) },
      new AbortController().signal,
    );
    expect(r.content).toBe(
      `could not resolve ${'x'.repeat(1_000)}… [9999000 chars cut] (ENOTFOUND): check the host name.`,
    );
  });

  it('caps a 10 MB error a tool raises at the house cap, saying how much was cut', async () => {
    const loud = defineTool({
      name: 'loud',
      kind: 'read',
      description: 'Fails at length.',
      schema: z.object({}),
      run: async () => {
        throw new ToolError(`${'line of detail\n'.repeat(700_000)}and what to do next`);
      },
    });
    const r = await dispatch(
      { id: 'toolu_2', name: 'loud', input: {} },
      { ...deps(), registry: new Registry([loud]) },
      new AbortController().signal,
    );
    expect(r.is_error).toBe(true);
    expect(r.content.length).toBeLessThanOrEqual(MAX_OUTPUT_CHARS + 100);
    expect(r.content).toMatch(
      /^line of detail\n[^]*\[… 698,\d{3} lines \(\d{1,3},\d{3},\d{3} chars\) cut …\][^]*and what to do next$/,
    );
  });
});

describe('dispatch describes paths against the workspace root', () => {
  it('shows an absolute path inside the workspace relative, so a remembered rule covers both forms', async () => {
    const events: AgentEvent[] = [];
    const r = await dispatch(
      { id: 'toolu_3', name: 'write_file', input: { path: path.join(dir, 'out.txt'), content: 'x\n' } },
      { ...deps(events), policy: new Policy(['write_file(out.txt)']) },
      new AbortController().signal,
    );
    expect(r.is_error).toBeFalsy();
    const start = events.find((e) => e.type === 'tool_start');
    expect(start).toMatchObject({ summary: 'Write out.txt', detail: 'out.txt' });
  });

  it('applies a deny rule to the absolute form of the path too', async () => {
    const r = await dispatch(
      { id: 'toolu_4', name: 'read_file', input: { path: path.join(dir, 'a.txt') } },
      { ...deps(), policy: new Policy([], ['read_file(a.txt)']) },
      new AbortController().signal,
    );
    expect(r.is_error).toBe(true);
    expect(r.content).not.toContain('alpha');
  });

  it('keeps an absolute path outside the workspace as given', async () => {
    const events: AgentEvent[] = [];
    await run('read_file', { path: '/etc/hostname' }, events);
    expect(events.find((e) => e.type === 'tool_start')).toMatchObject({ detail: '/etc/hostname' });
  });
});

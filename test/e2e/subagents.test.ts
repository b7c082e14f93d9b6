import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codey, removeSandbox, sandbox, sessionLogs, type Sandbox } from '../support/cli';
import {
  block,
  reply,
  startFakeAnthropic,
  toolResultsPaired,
  type FakeAnthropic,
  type RecordedRequest,
  type Step,
} from '../support/fake-anthropic';

const FAKE_BIN = resolve(import.meta.dirname, '../fixtures/bin');
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

type Msg = {
  role: string;
  content:
    string | { type: string; text?: string; content?: string; tool_use_id?: string; is_error?: boolean }[];
};
const systemOf = (r: RecordedRequest) =>
  typeof r.body.system === 'string'
    ? r.body.system
    : (r.body.system ?? []).map((b) => String(b.text)).join('');
const isChild = (r: RecordedRequest) => systemOf(r).includes('You are a subagent');
const steps = (r: RecordedRequest) => (r.body.messages ?? []).filter((m) => m.role === 'assistant').length;
const toolNames = (r: RecordedRequest) => (r.body.tools ?? []).map((t) => String(t.name));
const children = () => fake.messageRequests.filter(isChild);
const parents = () => fake.messageRequests.filter((r) => !isChild(r));
const lastResults = (r: RecordedRequest) =>
  (r.body.messages as Msg[]).at(-1)!.content as Exclude<Msg['content'], string>;

/** The parent spawns one child on `task`; the child runs `childSteps` then says `child report`. */
function script(task: string, childSteps: Step[]) {
  fake.respond((req) => {
    if (isChild(req)) return childSteps[steps(req)] ?? reply.text('child report');
    return steps(req) === 0
      ? reply.blocks([block.toolUse('spawn_agent', { task, description: 'Run the tests' }, 'toolu_spawn1')])
      : reply.text('parent done');
  });
}

describe('spawn_agent in -p', () => {
  it("a child's bash without --allow is refused and listed with the child's id; with --allow bash it runs", async () => {
    script('run node test.js', [reply.toolUse('bash', { command: 'node test.js' })]);
    const refused = await codey(box, [
      '-p',
      'check the tests',
      '--allow',
      'spawn_agent',
      '--output-format',
      'json',
    ]);
    expect(refused.exitCode).toBe(0);
    const obj = JSON.parse(refused.stdout) as {
      permission_denials: { tool_name: string; agent_id?: string; reason: string }[];
    };
    expect(obj.permission_denials).toHaveLength(1);
    expect(obj.permission_denials[0]).toMatchObject({ tool_name: 'bash', reason: 'no_one_to_ask' });
    expect(obj.permission_denials[0].agent_id).toMatch(/^[0-9a-f]{8}$/);
    expect(lastResults(children()[1])[0].content).toContain('needs the person');

    const before = fake.messageRequests.length;
    const allowed = await codey(box, [
      '-p',
      'check the tests',
      '--allow',
      'spawn_agent,bash',
      '--output-format',
      'json',
    ]);
    const obj2 = JSON.parse(allowed.stdout) as { permission_denials: unknown[] };
    expect(obj2.permission_denials).toEqual([]);
    const childAfter = fake.messageRequests.slice(before).filter(isChild);
    expect(lastResults(childAfter[1])[0].content).not.toContain('needs the person');
    expect(lastResults(childAfter[1])[0].is_error).toBeUndefined();
  });

  it('stream-json tags every child event with parent_tool_use_id and agent_id; usage includes the children', async () => {
    script('look at src', [reply.toolUse('read_file', { path: 'src/add.js' })]);
    const r = await codey(box, ['-p', 'go', '--allow', 'spawn_agent', '--output-format', 'stream-json']);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const childLines = lines.filter((l) => l.agent_id);
    expect(childLines.length).toBeGreaterThan(3);
    for (const l of childLines) expect(l.parent_tool_use_id).toBe('toolu_spawn1');
    expect(childLines.map((l) => l.type)).toContain('tool_end');
    expect(lines.some((l) => 'agentId' in l || 'parentToolUseId' in l)).toBe(false);
    const result = lines.at(-1) as { usage: { input_tokens: number }; result: string };
    expect(fake.messageRequests).toHaveLength(4);
    const perRequest = (lines.find((l) => l.type === 'usage') as { usage: { input_tokens: number } }).usage
      .input_tokens;
    expect(result.usage.input_tokens).toBe(4 * perRequest);
    expect(result.result).toBe('parent done');
    // The parent read the child's report and its footer.
    expect(lastResults(parents()[1])[0].content).toMatch(
      /^child report\n\n\[subagent [0-9a-f]{8}: 2 requests; tools: read_file; /,
    );
    const log = await sessionLogs(box);
    expect(log).toMatch(/"type":"tool_end".*"parent_tool_use_id":"toolu_spawn1","agent_id":"[0-9a-f]{8}"/);
    for (const req of fake.messageRequests)
      expect(toolResultsPaired((req.body.messages ?? []) as never)).toBeNull();
  });

  it('text output shows each child tool call indented under the run', async () => {
    script('look at src', [reply.toolUse('read_file', { path: 'src/add.js' })]);
    const r = await codey(box, ['-p', 'go', '--allow', 'spawn_agent']);
    expect(r.stdout).toBe('parent done');
    expect(r.stderr).toMatch(/^ {2}● ReadFile\(src\/add\.js\) /m);
    expect(r.stderr).toMatch(/^● Agent\(look at src\) \[subagent /m);
  });
});

describe('spawn_agent does not ask', () => {
  /** The parent spawns two children at once; each runs `childSteps` then says `child report`. */
  function twoChildren(childSteps: Step[]) {
    fake.respond((req) => {
      if (isChild(req)) return childSteps[steps(req)] ?? reply.text('child report');
      return steps(req) === 0
        ? reply.blocks([
            block.toolUse('spawn_agent', { task: 'look at src', description: 'One' }, 'toolu_spawn1'),
            block.toolUse('spawn_agent', { task: 'look at test', description: 'Two' }, 'toolu_spawn2'),
          ])
        : reply.text('parent done');
    });
  }
  type Result = {
    permission_denials: { tool_name: string; tool_use_id: string; agent_id?: string; reason: string }[];
  };

  it("two spawn_agent calls without --allow both run; a child's bash without a rule is still refused", async () => {
    twoChildren([reply.toolUse('bash', { command: 'node test.js' })]);
    const r = await codey(box, ['-p', 'check', '--output-format', 'json']);
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout) as Result;
    // Two children, each with its first request and the one after its refused bash.
    expect(children()).toHaveLength(4);
    expect(out.permission_denials).toHaveLength(2);
    for (const d of out.permission_denials) {
      expect(d).toMatchObject({ tool_name: 'bash', reason: 'no_one_to_ask' });
      expect(d.agent_id).toMatch(/^[0-9a-f]{8}$/);
    }
    const results = lastResults(parents()[1]);
    expect(results.map((b) => b.is_error)).toEqual([undefined, undefined]);
    for (const b of results) expect(b.content).toMatch(/^child report/);
  });

  it('a deny rule for spawn_agent refuses it', async () => {
    await mkdir(join(box.env.XDG_CONFIG_HOME, 'codey'), { recursive: true });
    await writeFile(
      join(box.env.XDG_CONFIG_HOME, 'codey', 'config.json'),
      JSON.stringify({ deny: ['spawn_agent'] }),
    );
    twoChildren([]);
    const r = await codey(box, ['-p', 'check', '--output-format', 'json']);
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout) as Result;
    expect(children()).toHaveLength(0);
    expect(out.permission_denials.map((d) => [d.tool_name, d.reason])).toEqual([
      ['spawn_agent', 'rule'],
      ['spawn_agent', 'rule'],
    ]);
    for (const b of lastResults(parents()[1])) {
      expect(b.is_error).toBe(true);
      expect(b.content).toContain('the rule "spawn_agent" refuses');
    }
  });
});

describe('subagents and the web tools', () => {
  const config = async (o: Record<string, unknown>) => {
    await mkdir(join(box.env.XDG_CONFIG_HOME, 'codey'), { recursive: true });
    await writeFile(join(box.env.XDG_CONFIG_HOME, 'codey', 'config.json'), JSON.stringify(o));
  };
  const env = { PATH: `${FAKE_BIN}:${process.env.PATH}` };

  it('a child has web_search and web_fetch when the parent has them, neither with --no-web, and no spawn_agent', async () => {
    await config({ web_provider: 'command' });
    script('look it up', []);
    await codey(box, ['-p', 'go', '--allow', 'spawn_agent'], { env });
    expect(toolNames(parents()[0])).toEqual(
      expect.arrayContaining(['web_search', 'web_fetch', 'spawn_agent']),
    );
    expect(toolNames(children()[0])).toEqual([
      'bash',
      'read_file',
      'write_file',
      'edit_file',
      'glob',
      'grep',
      'web_search',
      'web_fetch',
    ]);
    const before = fake.messageRequests.length;
    await codey(box, ['-p', 'go', '--allow', 'spawn_agent', '--no-web'], { env });
    const after = fake.messageRequests.slice(before);
    for (const r of after) expect(toolNames(r).filter((n) => n.startsWith('web_'))).toEqual([]);
    expect(after.filter(isChild)).toHaveLength(1);
  });

  it('a project definition is read, named by --verbose, and listed in the tool description', async () => {
    await mkdir(join(box.cwd, '.claude', 'agents'), { recursive: true });
    await writeFile(
      join(box.cwd, '.claude', 'agents', 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews a change\ntools: Read, Grep\n---\nReview it.\n',
    );
    await writeFile(join(box.cwd, '.claude', 'agents', 'broken.md'), 'no frontmatter\n');
    fake.enqueue(reply.text('ok'));
    const r = await codey(box, ['-p', 'hi', '--verbose']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('codey: agent definitions: reviewer\n');
    expect(r.stderr).toContain('codey: agent .claude/agents/broken.md: no YAML frontmatter');
    const spawnTool = fake.messageRequests[0].body.tools!.find((t) => t.name === 'spawn_agent');
    expect(String(spawnTool?.description)).toContain('- reviewer: Reviews a change');
  });

  it('--no-agents and agents: false send the same bytes, with no word about subagents', async () => {
    fake.enqueue(reply.text('ok'), reply.text('ok'));
    await codey(box, ['-p', 'hello', '--no-agents']);
    await config({ agents: false });
    await codey(box, ['-p', 'hello']);
    const [a, b] = fake.messageRequests;
    expect(a.raw).toBe(b.raw);
    expect(a.raw).not.toMatch(/subagent|spawn_agent/i);
  });
});

import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemPrompt } from '../../src/agent/system-prompt';
import { buildRequest } from '../../src/llm/request';
import { builtinTools } from '../../src/tools/builtin-tools';
import { Registry } from '../../src/tools/registry';
import { CANARY, codey, removeSandbox, sandbox, sessionLogs, type Sandbox } from '../support/cli';
import { block, fault, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';

const FAKE_BIN = resolve(import.meta.dirname, '../fixtures/bin');
let fake: FakeAnthropic;
let box: Sandbox;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-empty', fake.url);
});
afterEach(async () => {
  await fake.close();
  await removeSandbox(box);
});

// The user's own file: a project file may not turn the web on.
const config = async (o: Record<string, unknown>) => {
  await mkdir(join(box.env.XDG_CONFIG_HOME, 'codey'), { recursive: true });
  await writeFile(join(box.env.XDG_CONFIG_HOME, 'codey', 'config.json'), JSON.stringify(o));
};
type Body = {
  tools?: { name: string; type?: string }[];
  system: { text: string }[];
  messages: { role: string; content: { type: string; input?: unknown; tool_use_id?: string }[] }[];
};

describe('no provider, no web', () => {
  it('the request bytes equal those of a build without web code', async () => {
    fake.enqueue(reply.text('ok'));
    // --no-agents: the file tools are then all there is.
    const r = await codey(box, ['-p', 'hello', '--no-agents']);
    expect(r.exitCode).toBe(0);
    // What a codey without any web support would send: the file tools and the same system prompt.
    const expected = buildRequest({
      model: 'claude-opus-4-8',
      system: systemPrompt({
        cwd: box.cwd,
        platform: process.platform,
        date: new Date().toISOString().slice(0, 10),
        isGitRepo: false,
      }),
      tools: new Registry(builtinTools()).definitions(),
      hostedTools: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
      maxTokens: 32_000,
      thinking: 'auto',
    });
    expect(fake.messageRequests[0].raw).toBe(JSON.stringify(expected));
  });

  it('a provider that is named but unusable gives one notice and no tool, and codey still runs', async () => {
    await config({ web_provider: 'brave' });
    fake.enqueue(reply.text('ok'));
    const r = await codey(box, ['-p', 'hello', '--verbose']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/BRAVE_API_KEY/);
    const body = fake.messageRequests[0].body as Body;
    expect(body.tools!.map((t) => t.name)).not.toContain('web_search');
  });
});

describe('web_provider: command', () => {
  it('--verbose lists web_search and web_fetch; --no-web lists neither', async () => {
    await config({ web_provider: 'command' });
    const env = { PATH: `${FAKE_BIN}:${process.env.PATH}` };
    fake.enqueue(reply.text('ok'), reply.text('ok'));
    const on = await codey(box, ['-p', 'hi', '--verbose'], { env });
    expect(on.stderr).toMatch(
      /tools: bash, read_file, write_file, edit_file, glob, grep, web_search, web_fetch, spawn_agent \(web: command\)/,
    );
    const off = await codey(box, ['-p', 'hi', '--verbose', '--no-web'], { env });
    expect(off.stderr).toMatch(
      /tools: bash, read_file, write_file, edit_file, glob, grep, spawn_agent \(web off: --no-web\)/,
    );
    expect(fake.messageRequests[1].raw).not.toContain('web_');
  });

  it('a search runs the local command when allowed, and the results reach the model', async () => {
    await config({ web_provider: 'command' });
    fake.enqueue(
      reply.toolUse('web_search', { query: 'vitest 4 release notes', count: 3 }),
      reply.text('found it'),
    );
    const r = await codey(box, ['-p', 'look it up', '--allow', 'web_search'], {
      env: { PATH: `${FAKE_BIN}:${process.env.PATH}` },
    });
    expect(r.exitCode).toBe(0);
    const result = (fake.messageRequests[1].body as Body).messages.at(-1)!.content[0] as unknown as {
      content: string;
    };
    expect(result.content).toMatch(
      /^--- begin search results [0-9a-f]{16}: 3 results from ddgs for .*\n1\. /,
    );
    expect(result.content).toContain('for "vitest 4 release notes"');
    expect(r.stderr).toContain('● WebSearch(vitest 4 release notes)');
  });

  it('web_fetch refuses a private address and the model reads why', async () => {
    await config({ web_provider: 'command' });
    fake.enqueue(
      reply.toolUse('web_fetch', { url: 'http://169.254.169.254/latest/meta-data/' }),
      reply.text('ok'),
    );
    await codey(box, ['-p', 'fetch', '--allow', 'web_fetch'], {
      env: { PATH: `${FAKE_BIN}:${process.env.PATH}` },
    });
    const result = (fake.messageRequests[1].body as Body).messages.at(-1)!.content[0] as unknown as {
      content: string;
      is_error: boolean;
    };
    expect(result.is_error).toBe(true);
    expect(result.content).toContain('169.254.169.254');
    expect(result.content).toMatch(/curl/);
  });

  it('-p: a localhost fetch is refused at once, with the curl hint and no rule suggested', async () => {
    await config({ web_provider: 'command' });
    fake.enqueue(reply.toolUse('web_fetch', { url: 'http://localhost:3000/api' }), reply.text('ok'));
    const r = await codey(box, ['-p', 'fetch', '--output-format', 'json'], {
      env: { PATH: `${FAKE_BIN}:${process.env.PATH}` },
    });
    const result = (fake.messageRequests[1].body as Body).messages.at(-1)!.content[0] as unknown as {
      content: string;
      is_error: boolean;
    };
    expect(result.is_error).toBe(true);
    expect(result.content).toBe(
      'refused: localhost is a loopback name (RFC 6761); web_fetch only reaches public addresses. ' +
        'For a local dev server use bash with curl, which the person can approve.',
    );
    expect((JSON.parse(r.stdout) as { permission_denials: unknown[] }).permission_denials).toEqual([]);
  });
});

describe('web_provider: hosted', () => {
  const search = (id: string, query: string) => [
    block.serverToolUse('web_search', { query }, id),
    block.webSearchResult([{ url: 'https://nodejs.org/en/blog/release', title: 'Node.js releases' }], id),
  ];

  it('sends the floor version when the Models API is not answered, and the newest when the model can', async () => {
    await config({ web_provider: 'hosted' });
    fake.enqueue(reply.text('ok'));
    await codey(box, ['-p', 'hi']);
    const tools = (fake.messageRequests[0].body as Body).tools!;
    expect(tools.at(-1)).toMatchObject({ type: 'web_search_20250305', name: 'web_search' });
    // The client-side web_fetch is still offered with hosted search.
    expect(tools.map((t) => t.name)).toContain('web_fetch');

    fake.models = {
      'claude-opus-4-8': {
        capabilities: {
          code_execution: { supported: true },
          server_tools: { supported: true, web_search: { supported: true } },
        },
      },
    };
    fake.enqueue(reply.text('ok'));
    await codey(box, ['-p', 'hi']);
    expect((fake.messageRequests[1].body as Body).tools!.at(-1)).toMatchObject({
      type: 'web_search_20260318',
    });
    expect(fake.requests.some((r) => r.path === '/v1/models/claude-opus-4-8')).toBe(true);
  });

  it('round trip: server_tool_use kept intact, mixed with a client tool, pause_turn, shown and logged', async () => {
    await config({ web_provider: 'hosted' });
    fake.enqueue(
      reply.blocks(search('srvtoolu_a', 'node 24 release date'), { stopReason: 'pause_turn' }),
      reply.blocks([
        ...search('srvtoolu_b', 'node 24 lts'),
        block.toolUse('glob', { pattern: '*.md' }, 'toolu_glob'),
      ]),
      reply.text('Node 24 is out.'),
    );
    const r = await codey(box, ['-p', 'when is node 24 out', '--output-format', 'json']);
    expect(r.exitCode).toBe(0);
    const [, second, third] = fake.messageRequests.map((q) => q.body as Body);
    // pause_turn: the paused assistant message is sent back as it was.
    expect(second.messages[1].content[0]).toMatchObject({
      type: 'server_tool_use',
      id: 'srvtoolu_a',
      input: { query: 'node 24 release date' },
    });
    // The continuation extends the paused message; the queries the model wrote are not lost; only the
    // client tool gets a tool_result.
    expect(third.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(third.messages[1].content.map((b) => b.type)).toEqual([
      'server_tool_use',
      'web_search_tool_result',
      'server_tool_use',
      'web_search_tool_result',
      'tool_use',
    ]);
    expect(third.messages[1].content[2]).toMatchObject({ id: 'srvtoolu_b', input: { query: 'node 24 lts' } });
    expect(third.messages[2].content.map((b) => b.tool_use_id)).toEqual(['toolu_glob']);
    const out = JSON.parse(r.stdout) as { usage: { web_search_requests: number } };
    expect(out.usage.web_search_requests).toBe(2);
    const log = await sessionLogs(box);
    expect(log).toContain('"type":"server_tool_use"');
    expect(log).toContain('node 24 lts');
    expect(log).toContain('https://nodejs.org/en/blog/release');
  });

  it('shows an error such as max_uses_exceeded', async () => {
    await config({ web_provider: 'hosted' });
    fake.enqueue(
      reply.blocks([
        block.serverToolUse('web_search', { query: 'x' }, 's1'),
        block.webSearchResult({ errorCode: 'max_uses_exceeded' }, 's1'),
        block.text('no more searches'),
      ]),
    );
    const r = await codey(box, ['-p', 'hi']);
    expect(r.stderr).toContain('● WebSearch(x) hosted');
    expect(r.stderr).toContain('web_search: max_uses_exceeded');
  });

  it('a gateway that rejects the server tool gives one readable error naming the endpoint', async () => {
    await config({ web_provider: 'hosted' });
    fake.enqueue(
      fault.status(400, {
        message:
          "tools.6: Input tag 'web_search_20250305' found using 'type' does not match any of the expected tags",
      }),
    );
    const r = await codey(box, ['-p', 'hi']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`${fake.url} rejected Anthropic's hosted web tools`);
    expect(r.stderr).toContain('codey setup');
    expect(r.stderr).not.toContain(CANARY);
  });
});

/** An MCP tool's image result is kept by the session store: a resumed session sends it again. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codey } from '../support/cli';
import { e2eSandbox } from '../support/e2e-sandbox';
import { reply } from '../support/fake-anthropic';
import { TEST_SERVER } from '../mcp/servers-kit';

const e2e = e2eSandbox();

type Block = { type: string; content?: unknown; source?: { media_type?: string; data?: string } };
/** The tool_result of request `i` (its last message's), as it was sent. */
const resultIn = (i: number) =>
  (e2e.fake.messageRequests[i].body.messages as { content: Block[] | string }[])
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .find((b) => b.type === 'tool_result');

describe('an MCP image result through the session store', () => {
  it('the resumed request carries the image block the first run sent', async () => {
    await mkdir(join(e2e.box.root, 'config', 'codey'), { recursive: true });
    await writeFile(
      join(e2e.box.root, 'config', 'codey', 'config.json'),
      JSON.stringify({
        mcp_servers: { test: { command: process.execPath, args: [TEST_SERVER] } },
        allow: ['mcp__test__picture'],
      }),
    );
    e2e.fake.enqueue(reply.toolUse('mcp__test__picture', {}), reply.text('seen'), reply.text('again'));
    const first = await codey(e2e.box, ['-p', 'look']);
    expect(first.exitCode).toBe(0);
    const sent = resultIn(1)?.content as Block[];
    expect(sent.map((b) => b.type)).toEqual(['text', 'image']);

    const resumed = await codey(e2e.box, ['-p', '-c', 'and now?']);
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stderr).not.toContain('dropped');
    expect(resultIn(2)?.content).toEqual(sent);
  }, 40_000);
});

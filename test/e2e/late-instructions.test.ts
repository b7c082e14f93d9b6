import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codey } from '../support/cli';
import { e2eSandbox } from '../support/e2e-sandbox';
import { reply, type RecordedRequest } from '../support/fake-anthropic';

const e2e = e2eSandbox();

async function put(file: string, text: string) {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

type Block = { type: string; text?: string; tool_use_id?: string; cache_control?: unknown };
type Message = { role: string; content: string | Block[] };

const messagesOf = (r: RecordedRequest) => (r.body.messages ?? []) as Message[];
const blocksOf = (m: Message): Block[] =>
  typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
/** The late instructions blocks of a request, by the file they name. */
const lateBlocks = (r: RecordedRequest) =>
  messagesOf(r)
    .filter((m) => m.role === 'user')
    .flatMap(blocksOf)
    .filter((b) => b.type === 'text' && b.text?.startsWith('<instructions path='));
/** A message without its cache breakpoints, which move from request to request by design. */
const bare = (m: Message) =>
  JSON.stringify({ ...m, content: blocksOf(m).map(({ cache_control: _, ...b }) => b) });

describe('instructions that load when a file under them is first read', () => {
  it('a nested CLAUDE.md arrives after the tool_result of the first read under it; the request prefix is byte-identical; a second read adds nothing', async () => {
    const ws = e2e.box.cwd;
    execFileSync('git', ['init', '-q'], { cwd: ws });
    await put(join(ws, 'CLAUDE.md'), 'Root rules.\n');
    await put(join(ws, 'api', 'CLAUDE.md'), 'API-NESTED-RULE: every handler returns JSON.\n');
    await put(join(ws, 'api', 'users.ts'), 'export const users = [];\n');
    await put(join(ws, 'api', 'posts.ts'), 'export const posts = [];\n');
    e2e.fake.enqueue(
      reply.toolUse('read_file', { path: 'README.md' }),
      reply.toolUse('read_file', { path: 'api/users.ts' }),
      reply.toolUse('read_file', { path: 'api/posts.ts' }),
      reply.text('done'),
    );
    const r = await codey(e2e.box, ['-p', 'look at the api']);
    expect(r.exitCode, r.stderr).toBe(0);
    const reqs = e2e.fake.messageRequests;
    expect(reqs).toHaveLength(4);
    // Not at start: the system prompt holds the root's file only, and never the nested one.
    for (const q of reqs) {
      expect(JSON.stringify(q.body.system)).toContain('Root rules.');
      expect(JSON.stringify(q.body.system)).not.toContain('API-NESTED-RULE');
    }
    expect(lateBlocks(reqs[0])).toHaveLength(0);
    expect(lateBlocks(reqs[1])).toHaveLength(0);
    // It arrives in the user message of the read under api/, after its tool_result.
    const last = messagesOf(reqs[2]).at(-1)!;
    const blocks = blocksOf(last);
    expect(blocks[0].type).toBe('tool_result');
    expect(blocks[1].type).toBe('text');
    expect(blocks[1].text).toContain(`<instructions path=${JSON.stringify(join(ws, 'api', 'CLAUDE.md'))}>`);
    expect(blocks[1].text).toContain('API-NESTED-RULE: every handler returns JSON.');
    expect(blocks[1].text).toContain('you used api/users.ts');
    // Everything before the new message is what the request before sent, byte for byte.
    const prefix = (q: RecordedRequest) => JSON.stringify([q.body.system, q.body.tools, q.body.model]);
    for (const i of [1, 2, 3]) {
      expect(prefix(reqs[i])).toBe(prefix(reqs[0]));
      const before = messagesOf(reqs[i - 1]);
      expect(messagesOf(reqs[i]).slice(0, before.length).map(bare)).toEqual(before.map(bare));
    }
    // The second read under api/ adds nothing: it is in the conversation once.
    expect(lateBlocks(reqs[3])).toHaveLength(1);
    expect(blocksOf(messagesOf(reqs[3]).at(-1)!).map((b) => b.type)).toEqual(['tool_result']);
    // Without --verbose, -p keeps such news off stderr.
    expect(r.stderr).not.toContain('instructions loaded: ');
  });

  it('does not send it again after -c when the resumed conversation holds it', async () => {
    const ws = e2e.box.cwd;
    await put(join(ws, 'api', 'CLAUDE.md'), 'API-NESTED-RULE.\n');
    await put(join(ws, 'api', 'users.ts'), 'export const users = [];\n');
    e2e.fake.enqueue(reply.toolUse('read_file', { path: 'api/users.ts' }), reply.text('one'));
    expect((await codey(e2e.box, ['-p', 'first'])).exitCode).toBe(0);
    e2e.fake.enqueue(reply.toolUse('read_file', { path: 'api/users.ts' }), reply.text('two'));
    const r = await codey(e2e.box, ['-p', '-c', 'again', '--verbose']);
    expect(r.exitCode, r.stderr).toBe(0);
    const reqs = e2e.fake.messageRequests;
    expect(lateBlocks(reqs.at(-1)!)).toHaveLength(1);
    expect(r.stderr).not.toContain('instructions loaded: ');
  });

  it('a .claude/rules file with paths: arrives with the first edit of a matching file, and not for others', async () => {
    const ws = e2e.box.cwd;
    await put(
      join(ws, '.claude', 'rules', 'tests.md'),
      '---\npaths:\n  - "src/**/*.test.ts"\n---\nTEST-RULE: use vitest, never jest.\n',
    );
    await put(join(ws, 'src', 'app.ts'), 'export const a = 1;\n');
    await put(join(ws, 'src', 'app.test.ts'), "import { a } from './app';\n");
    e2e.fake.enqueue(
      reply.toolUse('read_file', { path: 'src/app.ts' }),
      reply.toolUse('edit_file', {
        path: 'src/app.test.ts',
        old_string: "from './app';",
        new_string: "from './app.js';",
      }),
      reply.text('done'),
    );
    const r = await codey(e2e.box, ['-p', 'fix the import', '--allow', 'edit_file', '--verbose']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'codey: instructions loaded when a file they cover is read: CLAUDE.md and AGENTS.md of sub-folders, .claude/rules/tests.md (paths: src/**/*.test.ts)',
    );
    const reqs = e2e.fake.messageRequests;
    expect(JSON.stringify(reqs[0].body.system)).not.toContain('TEST-RULE');
    expect(lateBlocks(reqs[1])).toHaveLength(0);
    const late = lateBlocks(reqs[2]);
    expect(late).toHaveLength(1);
    expect(late[0].text).toContain('TEST-RULE: use vitest, never jest.');
    expect(late[0].text).toContain('files matching src/**/*.test.ts');
    expect(late[0].text).not.toContain('paths:');
    expect(r.stderr).toContain('codey: instructions loaded: .claude/rules/tests.md (for src/app.test.ts)');
  });
});

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codey } from '../support/cli';
import { e2eSandbox } from '../support/e2e-sandbox';
import { reply } from '../support/fake-anthropic';

const e2e = e2eSandbox();

async function put(file: string, text: string) {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}
type Block = { type: string; content?: string; is_error?: boolean };
/** The tool_result the model got in request `i` (the answer to the call of request `i - 1`). */
const resultIn = (i: number) =>
  (e2e.fake.messageRequests[i].body.messages!.at(-1)!.content as Block[]).find(
    (b) => b.type === 'tool_result',
  );

/** A project as Claude Code users keep it: a shared settings file with a deny and an allow rule. */
async function claudeProject() {
  await put(join(e2e.box.cwd, '.env'), 'API_TOKEN=from-dotenv\n');
  await put(join(e2e.box.cwd, 'src', 'app.ts'), 'export const TOKEN = process.env.API_TOKEN;\n');
  await put(
    join(e2e.box.cwd, '.claude', 'settings.json'),
    JSON.stringify(
      {
        $schema: 'https://json.schemastore.org/claude-code-settings.json',
        permissions: { allow: ['Bash(git status:*)'], deny: ['Read(./.env)'], defaultMode: 'default' },
        hooks: { PostToolUse: [] },
        statusLine: { type: 'command', command: 'echo hi' },
      },
      null,
      2,
    ),
  );
}

describe("a repository's .claude/settings.json", () => {
  it('deny Read(./.env) applies at once: read_file refuses, grep and glob leave .env out and say so', async () => {
    await claudeProject();
    e2e.fake.enqueue(
      reply.toolUse('read_file', { path: '.env' }),
      reply.toolUse('grep', { pattern: 'API_TOKEN' }),
      reply.toolUse('glob', { pattern: '**/*' }),
      reply.text('done'),
    );
    const r = await codey(e2e.box, ['-p', 'look', '--verbose']);
    expect(r.exitCode).toBe(0);
    expect(resultIn(1)?.content).toContain('the rule "Read(./.env)" refuses this call');
    expect(resultIn(2)?.content).toContain('src/app.ts');
    expect(resultIn(2)?.content).not.toMatch(/^\.env/m);
    expect(resultIn(2)?.content).toContain('1 file left out by a deny rule');
    expect(resultIn(3)?.content).not.toMatch(/^\.env$/m);
    expect(resultIn(3)?.content).toContain('1 file left out by a deny rule');
    expect(r.stderr).toContain('codey: denied by rule Read(./.env)');
    expect(r.stderr).not.toContain('allowed by rule Read');
    expect(r.stderr).toContain('Claude Code settings read but not used: statusLine (');
    expect(r.stdout + r.stderr).not.toContain('from-dotenv');
  }, 30_000);

  it('allow Bash(git status:*) waits for trust; after `codey trust grant` it runs in -p', async () => {
    await claudeProject();
    e2e.fake.enqueue(reply.toolUse('bash', { command: 'git status' }), reply.text('held'));
    const held = await codey(e2e.box, ['-p', 'status', '--output-format', 'json']);
    expect(held.stderr).toContain('allow ["Bash(git status:*)"] is ignored in a project file');
    expect(held.stderr).toContain('codey trust grant');
    expect(JSON.parse(held.stdout).permission_denials).toHaveLength(1);

    const show = await codey(e2e.box, ['trust']);
    expect(show.exitCode).toBe(0);
    expect(show.stdout).toContain(join(e2e.box.cwd, '.claude', 'settings.json'));
    expect(show.stdout).toContain('not trusted');

    const grant = await codey(e2e.box, ['trust', 'grant']);
    expect(grant.exitCode).toBe(0);
    expect(grant.stdout).toContain('codey: trusted');

    e2e.fake.enqueue(reply.toolUse('bash', { command: 'git status' }), reply.text('ran'));
    const trusted = await codey(e2e.box, ['-p', 'status', '--verbose']);
    expect(trusted.stderr).not.toContain('is ignored in a project file');
    expect(trusted.stderr).toContain('codey: allowed by rule Bash(git status:*)');
    expect(resultIn(3)?.content).not.toContain('needs the person');

    const list = await codey(e2e.box, ['trust', 'list']);
    expect(list.stdout).toContain(join(e2e.box.cwd, '.claude', 'settings.json'));

    // A change to the file's permissions needs a new answer; revoke forgets the old one.
    await put(
      join(e2e.box.cwd, '.claude', 'settings.local.json'),
      JSON.stringify({ permissions: { allow: ['Bash'] } }),
    );
    e2e.fake.enqueue(reply.text('ok'));
    const changed = await codey(e2e.box, ['-p', 'hello']);
    expect(changed.stderr).toContain('is ignored in a project file');
    const revoke = await codey(e2e.box, ['trust', 'revoke']);
    expect(revoke.stdout).toContain('codey: no longer trusted');
    expect((await codey(e2e.box, ['trust', 'revoke'])).stdout).toContain('nothing here was trusted');
  }, 60_000);

  it("a trusted project's command allowed-tools hold in -p: its !`cmd` runs; untrusted, it is refused", async () => {
    await put(
      join(e2e.box.cwd, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Read'] } }),
    );
    await put(
      join(e2e.box.cwd, '.claude', 'commands', 'where.md'),
      '---\nallowed-tools: Bash(echo:*)\n---\nWhere: !`echo HERE-AND-NOW`\n',
    );
    const sent = (i: number) => JSON.stringify(e2e.fake.messageRequests[i].body.messages![0].content);
    e2e.fake.enqueue(reply.text('one'));
    const held = await codey(e2e.box, ['-p', '/where']);
    expect(held.exitCode).toBe(0);
    expect(held.stderr).toContain(
      'codey: /where: its allowed-tools (Bash(echo:*)) hold once you trust this project',
    );
    expect(held.stderr).not.toContain('codey: codey:');
    expect(sent(0)).toContain('was not run');

    expect((await codey(e2e.box, ['trust', 'grant'])).exitCode).toBe(0);
    e2e.fake.enqueue(reply.text('two'));
    const trusted = await codey(e2e.box, ['-p', '/where']);
    expect(trusted.exitCode).toBe(0);
    expect(trusted.stderr).not.toContain('hold once you trust this project');
    expect(sent(1)).toContain('Where: HERE-AND-NOW');
  }, 60_000);

  it("a repository whose only widening is a command's allowed-tools is asked about, and trusted, like its settings", async () => {
    const file = join(e2e.box.cwd, '.claude', 'commands', 'where.md');
    await put(file, '---\nallowed-tools: Bash(echo:*)\n---\nWhere: !`echo HERE-AND-NOW`\n');
    const sent = (i: number) => JSON.stringify(e2e.fake.messageRequests[i].body.messages![0].content);
    const show = await codey(e2e.box, ['trust', 'show']);
    expect(show.stdout).toContain(
      '/where allowed-tools `Bash(echo:*)`: while /where runs, any command starting with `echo` would run without asking',
    );
    expect(show.stdout).toContain('codey: not trusted');

    e2e.fake.enqueue(reply.text('one'));
    const held = await codey(e2e.box, ['-p', '/where']);
    expect(held.stderr).toContain('run `codey trust grant` here');
    expect(sent(0)).toContain('was not run');

    expect((await codey(e2e.box, ['trust', 'grant'])).exitCode).toBe(0);
    e2e.fake.enqueue(reply.text('two'));
    const trusted = await codey(e2e.box, ['-p', '/where']);
    expect(trusted.stderr).not.toContain('codey trust grant');
    expect(sent(1)).toContain('Where: HERE-AND-NOW');

    // A changed allowed-tools is a new question.
    await put(file, '---\nallowed-tools: Bash(echo:*) Bash(rm:*)\n---\nWhere: !`echo HERE-AND-NOW`\n');
    expect((await codey(e2e.box, ['trust', 'show'])).stdout).toContain('codey: not trusted');
  }, 60_000);

  it("a command's allowed-tools rule codey cannot match is reported when it runs, never held silently", async () => {
    await put(
      join(e2e.box.cwd, '.claude', 'commands', 'look.md'),
      '---\nallowed-tools: Grep(src/**), TodoWrite\n---\nLook around\n',
    );
    e2e.fake.enqueue(reply.text('ok'));
    const r = await codey(e2e.box, ['-p', '/look']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(
      'codey: /look: allowed-tools: the rule "Grep(src/**)" can match nothing: grep calls are decided as a whole',
    );
    expect(r.stderr).toContain(
      'codey: /look: allowed-tools: the rule "TodoWrite" names no tool of this session',
    );
  }, 30_000);
});

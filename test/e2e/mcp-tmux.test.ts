/** MCP servers in a real terminal: the trust question for `.mcp.json`, and Ctrl+C with a server running a call. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/cli';
import { reply } from '../support/fake-anthropic';
import { appInTmux, tmuxMissing } from '../support/app-in-tmux';
import { expectAllGone } from '../support/processes';
import { EXIT_MARK, startTmux, unwrapped } from '../support/tmux';
import { TEST_SERVER } from '../mcp/servers-kit';

const app = appInTmux();
const pidFile = () => join(app.box.root, 'server.pid');
const pids = async () =>
  (await readFile(pidFile(), 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
const entry = (...args: string[]) => ({
  command: process.execPath,
  args: [TEST_SERVER, ...args],
  env: { MCP_PID_FILE: pidFile() },
});
const start = () => startTmux({ argv: ['node', BIN], cwd: app.box.cwd, env: app.box.env, width: 160 });

describe.skipIf(tmuxMissing)('MCP servers in a real terminal', () => {
  it('a .mcp.json server: asked before it starts, no keeps it off, yes starts it and is remembered, a changed command asks again', async () => {
    const file = join(app.box.cwd, '.mcp.json');
    await writeFile(file, JSON.stringify({ mcpServers: { repo: entry() } }));
    app.term = start();
    let screen = await app.term.waitFor('the question', (s) => s.includes('Trust this file?'));
    expect(unwrapped(screen)).toContain(
      unwrapped(`the MCP server repo would start: \`${process.execPath} ${TEST_SERVER}\``),
    );
    app.term.type('n');
    app.term.keys('Enter');
    await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
    expect(await pids()).toEqual([]);
    app.term.kill();

    app.term = start();
    await app.term.waitFor('the question again', (s) => s.includes('Trust this file?'));
    app.term.type('y');
    app.term.keys('Enter');
    await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
    app.term.type('/mcp');
    app.term.keys('Enter');
    await app.term.waitFor('the server connected', (s) => s.includes('repo (stdio, config): connected'));
    expect(await pids()).toHaveLength(1);
    app.term.kill();

    app.term = start();
    screen = await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
    expect(screen).not.toContain('Trust this file?');
    app.term.kill();

    await writeFile(file, JSON.stringify({ mcpServers: { repo: entry('--slow', '1') } }));
    app.term = start();
    screen = await app.term.waitFor('the question for the new command', (s) =>
      s.includes('Trust this file?'),
    );
    expect(unwrapped(screen)).toContain(unwrapped(`${TEST_SERVER} --slow 1\``));
  }, 90_000);

  it('Ctrl+C during a call stops it; Ctrl+C twice quits, and the server is gone', async () => {
    await writeFile(
      join(app.box.env.XDG_CONFIG_HOME, 'codey', 'config.json'),
      JSON.stringify({ model: 'claude-opus-4-8', mcp_servers: { test: entry() }, allow: ['mcp__test'] }),
    );
    app.fake.enqueue(reply.toolUse('mcp__test__wait', {}), reply.text('Stopped waiting.'));
    app.term = start();
    await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
    app.term.type('wait for it');
    app.term.keys('Enter');
    await app.term.waitFor('the progress', (s) => /step \d+/.test(s));
    const [pid] = await pids();
    app.term.keys('C-c');
    await app.term.waitFor('the interrupted call', (s) =>
      s.includes('Interrupted. Tell codey what to do instead.'),
    );
    expect(app.fake.messageRequests).toHaveLength(1);
    app.term.keys('C-c');
    await app.term.waitFor('the second-press hint', (s) => s.includes('Press Ctrl+C again to exit'));
    app.term.keys('C-c');
    const screen = await app.term.waitFor('the exit', (s) => EXIT_MARK.test(s));
    expect(EXIT_MARK.exec(screen)?.[1]).toBe('0');
    await expectAllGone([pid]);
  }, 60_000);
});

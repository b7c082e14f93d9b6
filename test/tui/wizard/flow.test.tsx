import { mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { writeUserConfig } from '../../../src/config/write';
import { KEY } from '../helpers';
import { drive, flat, USER_FILE } from './drive';

afterEach(() => cleanup());

const ENV = { ANTHROPIC_API_KEY: 'sk-ant-env-0000' };

describe('moving through the wizard', () => {
  it('Esc on the first step cancels and writes nothing', async () => {
    for (const env of [ENV, {}]) {
      const d = await drive({ env }, KEY.esc);
      expect(await d.outcome()).toEqual({ written: false });
      expect(d.out()).toContain('Setup cancelled; nothing was written.');
      expect(d.writes).toEqual([]);
    }
  });

  it('Ctrl+C on a later step cancels and writes nothing', async () => {
    const d = await drive({ env: ENV }, KEY.enter, KEY.enter, '2', KEY.ctrlC);
    expect(await d.outcome()).toEqual({ written: false });
    await d.keys(KEY.enter);
    expect(d.writes).toEqual([]);
  });

  it('Esc goes back one step at a time, keeping what was chosen', async () => {
    const d = await drive({ env: ENV }, KEY.enter, '3', '2');
    expect(d.out()).toContain('4/4 · Summary');
    await d.keys(KEY.esc);
    expect(d.out()).toContain('3/4 · Web search');
    expect(d.out()).toContain('❯ 2. Hosted (Anthropic)');
    await d.keys(KEY.esc);
    expect(d.out()).toContain('❯ 3. claude-haiku-4-5');
    await d.keys(KEY.esc);
    expect(d.out()).toContain('Using ANTHROPIC_API_KEY from the environment.');
    await d.keys(KEY.enter, KEY.enter, KEY.enter, KEY.enter);
    await d.outcome();
    expect(d.writes[0][1]).toEqual({ model: 'claude-haiku-4-5', web_provider: 'hosted' });
  });

  it('moves the cursor with the arrows, wrapping at the ends', async () => {
    const d = await drive({ env: ENV }, KEY.enter, KEY.down, KEY.down);
    expect(d.out()).toContain('❯ 3. claude-haiku-4-5');
    await d.keys(KEY.up, KEY.up, KEY.up);
    expect(d.out()).toContain('❯ 4. Type a model id');
    await d.keys(KEY.down, KEY.down, KEY.enter);
    expect(d.out()).toContain('3/4 · Web search');
    await d.keys(KEY.enter, KEY.enter);
    await d.outcome();
    expect(d.writes[0][1].model).toBe('claude-sonnet-4-6');
  });

  it('starts from the existing file: its model and provider are preselected', async () => {
    const d = await drive(
      { env: ENV, existing: { model: 'my-local-model', web_provider: 'searxng' } },
      KEY.enter,
    );
    expect(d.out()).toContain('❯ 4. Type a model id');
    await d.keys(KEY.enter);
    expect(d.out()).toContain('Model id: my-local-model');
    await d.keys(KEY.enter);
    expect(d.out()).toContain('❯ 6. SearXNG');
  });

  it('shows a failed write, stays on the summary, and retries with Enter', async () => {
    let fail = true;
    const written: Record<string, unknown>[] = [];
    const write = async (_path: string, values: Record<string, unknown>) => {
      if (fail) throw new Error(`EACCES: permission denied, open '${USER_FILE}'`);
      written.push(values);
    };
    const d = await drive({ env: ENV, write }, KEY.enter, KEY.enter, KEY.enter, KEY.enter);
    expect(flat(d.out())).toContain(
      `Not saved: EACCES: permission denied, open '${USER_FILE}'. Enter tries again.`,
    );
    expect(d.out()).toContain('4/4 · Summary');
    expect(d.outcomes).toEqual([]);
    fail = false;
    await d.keys(KEY.enter);
    expect(await d.outcome()).toEqual({ written: true, file: USER_FILE });
    expect(flat(d.out())).toContain(`Saved to ${USER_FILE}. Run \`codey setup\` to change it.`);
    expect(written).toHaveLength(1);
  });
});

describe('with the real writer', () => {
  async function tempFile() {
    const root = await mkdtemp(join(tmpdir(), 'codey-wiz-'));
    return join(root, 'codey', 'config.json');
  }

  it('creates the file with mode 0600 holding the pasted key', async () => {
    const userFile = await tempFile();
    const d = await drive(
      { userFile, write: writeUserConfig },
      KEY.enter,
      'sk-ant-real-1',
      KEY.enter,
      KEY.enter,
      '3',
    );
    await d.keys(KEY.enter, KEY.enter);
    expect(await d.outcome()).toEqual({ written: true, file: userFile });
    expect((await stat(userFile)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(userFile, 'utf8'))).toEqual({
      model: 'claude-opus-4-8',
      web_provider: 'command',
      web_command: ['ddgs', 'text', '-q', '{query}', '-m', '{count}', '-o', '{out}'],
      api_key: 'sk-ant-real-1',
    });
  });

  it('merges into an existing file, keeping its other keys', async () => {
    const userFile = await tempFile();
    const existing = {
      theme: 'light',
      allow: ['Bash(git status)'],
      api_key: 'sk-ant-old',
      model: 'claude-haiku-4-5',
      max_turns: 7,
    };
    await mkdir(join(userFile, '..'), { recursive: true });
    await writeFile(userFile, JSON.stringify(existing), { mode: 0o644 });
    const d = await drive(
      { env: ENV, userFile, existing, write: writeUserConfig },
      KEY.enter,
      KEY.enter,
      '2',
      KEY.enter,
    );
    await d.outcome();
    expect(JSON.parse(await readFile(userFile, 'utf8'))).toEqual({ ...existing, web_provider: 'hosted' });
    expect((await stat(userFile)).mode & 0o777).toBe(0o600);
  });

  it('does not overwrite a malformed file: shows the error naming it', async () => {
    const userFile = await tempFile();
    await mkdir(join(userFile, '..'), { recursive: true });
    await writeFile(userFile, '{ "theme": ');
    const d = await drive(
      { env: ENV, userFile, write: writeUserConfig },
      KEY.enter,
      KEY.enter,
      KEY.enter,
      KEY.enter,
    );
    await d.until(() => d.out().includes('Not saved'));
    expect(flat(d.out())).toContain(`Not saved: ${userFile} is not valid JSON`);
    expect(await readFile(userFile, 'utf8')).toBe('{ "theme": ');
  });
});

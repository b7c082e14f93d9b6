import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY } from '../helpers';
import { drive, flat, USER_FILE } from './drive';

afterEach(() => cleanup());

const CTRL_U = '\u0015';

describe('the API key step', () => {
  it('with ANTHROPIC_API_KEY set: says so, never prints the key or a prefix of it, and writes no key', async () => {
    const secret = 'sk-ant-api03-Zq8xSECRETk3y';
    const d = await drive({ env: { ANTHROPIC_API_KEY: secret } });
    expect(d.out()).toContain('Using ANTHROPIC_API_KEY from the environment.');
    await d.keys(KEY.enter, KEY.enter, '2');
    expect(flat(d.out())).toContain('API key from the environment (ANTHROPIC_API_KEY)');
    await d.keys(KEY.enter);
    expect(await d.outcome()).toEqual({ written: true, file: USER_FILE });
    expect(d.frames().length).toBeGreaterThan(4);
    for (const f of d.frames()) {
      expect(f).not.toContain(secret.slice(0, 8));
      expect(f).not.toContain('SECRET');
    }
    const values = d.writes[0][1];
    expect(values).toEqual({ model: 'claude-opus-4-8', web_provider: 'hosted' });
    expect(Object.keys(values)).not.toContain('api_key');
    expect(Object.keys(values)).not.toContain('base_url');
  });

  it('a pasted key with a character that is not ASCII is refused at once, saying which, and the step stays', async () => {
    const d = await drive({});
    await d.keys('1', 'sk-ant-api03-abc\u2019def');
    await d.keys(KEY.enter);
    expect(flat(d.out())).toContain('the API key has a character that is not ASCII (U+2019) at character 17');
    expect(d.writes).toEqual([]);
  });

  it('names CODEY_API_KEY when that is the variable in force', async () => {
    const d = await drive({ env: { CODEY_API_KEY: 'k1', ANTHROPIC_API_KEY: 'k2' } });
    expect(d.out()).toContain('Using CODEY_API_KEY from the environment.');
  });

  it('pasted key: masked while typed, never printed, stored as api_key with base_url removed', async () => {
    const pasted = 'sk-ant-api03-PASTEDpasted-77';
    const d = await drive({ existing: { base_url: 'http://old-gw:1' } });
    expect(d.out()).toContain('No ANTHROPIC_API_KEY in the environment.');
    // The stored endpoint is the default choice; pick "paste" by digit.
    expect(d.out()).toContain('❯ 2. Use an endpoint');
    await d.keys('1', pasted);
    expect(d.out()).toContain(`Key: ${'•'.repeat(24)} (${pasted.length} characters)`);
    await d.keys(KEY.enter, '2', KEY.enter);
    expect(flat(d.out())).toContain(`API key stored in ${USER_FILE}`);
    await d.keys(KEY.enter);
    await d.outcome();
    for (const f of d.frames()) expect(f).not.toContain('sk-ant-api03');
    expect(d.writes).toEqual([
      [USER_FILE, { model: 'claude-sonnet-4-6', web_provider: 'none', base_url: undefined, api_key: pasted }],
    ]);
    expect(Object.keys(d.writes[0][1])).toContain('base_url');
  });

  it('asks again when nothing is pasted and no key is stored', async () => {
    const d = await drive({}, KEY.enter, KEY.enter);
    expect(d.out()).toContain('Paste a key, or press Esc to go back and choose an endpoint.');
    expect(d.out()).toContain('1/4 · API key');
  });

  it('keeps a stored key when Enter is pressed on an empty field', async () => {
    const d = await drive({ existing: { api_key: 'sk-ant-stored-1' } }, KEY.enter);
    expect(d.out()).toContain('Enter keeps the key stored in the file');
    await d.keys(KEY.enter, KEY.enter, KEY.enter);
    expect(flat(d.out())).toContain(`API key stored in ${USER_FILE} (kept)`);
    await d.keys(KEY.enter);
    await d.outcome();
    expect(Object.keys(d.writes[0][1])).not.toContain('api_key');
    for (const f of d.frames()) expect(f).not.toContain('sk-ant-stored');
  });

  it('endpoint: checks the URL, takes no key, a typed model id, and writes base_url', async () => {
    const d = await drive({}, '2', 'localhost:4000', KEY.enter);
    expect(d.out()).toContain('Enter an http:// or https:// URL, e.g. http://localhost:4000');
    await d.keys(CTRL_U, 'http://localhost:4000', KEY.enter);
    expect(d.out()).toContain('optional: Enter for no key');
    await d.keys(KEY.enter, '4', 'qwen3-coder', KEY.enter, KEY.enter);
    expect(flat(d.out())).toContain('API key endpoint http://localhost:4000, no key');
    await d.keys(KEY.enter);
    await d.outcome();
    expect(d.writes).toEqual([
      [
        USER_FILE,
        { model: 'qwen3-coder', web_provider: 'none', base_url: 'http://localhost:4000', api_key: undefined },
      ],
    ]);
  });

  it('endpoint with a key: stores it masked as api_key', async () => {
    const d = await drive({}, '2', 'https://gw.example.com/anthropic', KEY.enter, 'gw-key-XYZ', KEY.enter);
    await d.keys(KEY.enter, KEY.enter, KEY.enter);
    await d.outcome();
    for (const f of d.frames()) expect(f).not.toContain('gw-key');
    expect(d.writes[0][1]).toMatchObject({
      base_url: 'https://gw.example.com/anthropic',
      api_key: 'gw-key-XYZ',
    });
  });

  it('keeps a stored key only for the endpoint it was stored with', async () => {
    const existing = { base_url: 'http://gw:8080', api_key: 'gw-old-key' };
    const same = await drive({ existing }, KEY.enter);
    expect(same.out()).toContain('URL: http://gw:8080');
    await same.keys(KEY.enter);
    expect(same.out()).toContain('Enter keeps the key stored in the file');
    await same.keys(KEY.enter, KEY.enter, KEY.enter, KEY.enter);
    await same.outcome();
    expect(same.writes[0][1]).toEqual({
      model: 'claude-opus-4-8',
      web_provider: 'none',
      base_url: 'http://gw:8080',
    });

    // A new URL does not inherit the old key: it is removed, not sent somewhere new.
    const moved = await drive({ existing }, KEY.enter, CTRL_U, 'http://other:9', KEY.enter);
    expect(moved.out()).toContain('optional: Enter for no key');
    await moved.keys(KEY.enter, KEY.enter, KEY.enter, KEY.enter);
    await moved.outcome();
    expect(moved.writes[0][1]).toEqual({
      model: 'claude-opus-4-8',
      web_provider: 'none',
      base_url: 'http://other:9',
      api_key: undefined,
    });
  });
});

import { lstat, mkdir, mkdtemp, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/resolve';
import { readUserConfig, writeUserConfig } from '../../src/config/write';

let root: string;
let file: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'codey-write-'));
  file = join(root, 'xdg', 'codey', 'config.json');
});

const read = async (p = file) => JSON.parse(await readFile(p, 'utf8')) as Record<string, unknown>;
const mode = async (p: string) => (await stat(p)).mode & 0o777;

describe('writeUserConfig', () => {
  it('creates the folder (0700) and the file (0600) holding the values', async () => {
    await writeUserConfig(file, { model: 'claude-haiku-4-5', api_key: 'sk-ant-x', web_provider: 'hosted' });
    expect(await read()).toEqual({ model: 'claude-haiku-4-5', api_key: 'sk-ant-x', web_provider: 'hosted' });
    expect(await mode(file)).toBe(0o600);
    expect(await mode(join(root, 'xdg', 'codey'))).toBe(0o700);
  });

  it('keeps keys it was not given, unknown ones too, and removes keys set to undefined', async () => {
    await mkdir(join(root, 'xdg', 'codey'), { recursive: true });
    await writeFile(
      file,
      JSON.stringify({
        theme: 'light',
        allow: ['Bash(git status)'],
        base_url: 'http://gw:8080',
        future_key: 1,
        model: 'old',
      }),
    );
    await writeUserConfig(file, { model: 'claude-opus-4-8', base_url: undefined, web_provider: 'none' });
    expect(await read()).toEqual({
      theme: 'light',
      allow: ['Bash(git status)'],
      future_key: 1,
      model: 'claude-opus-4-8',
      web_provider: 'none',
    });
  });

  it('tightens an existing 0644 file to 0600, and leaves no temporary file behind', async () => {
    await mkdir(join(root, 'xdg', 'codey'), { recursive: true });
    await writeFile(file, '{}', { mode: 0o644 });
    expect(await mode(file)).toBe(0o644);
    await writeUserConfig(file, { api_key: 'sk-ant-y' });
    expect(await mode(file)).toBe(0o600);
    expect(await readdir(join(root, 'xdg', 'codey'))).toEqual(['config.json']);
  });

  it('refuses to overwrite a malformed file, naming it, and leaves it as it was', async () => {
    await mkdir(join(root, 'xdg', 'codey'), { recursive: true });
    await writeFile(file, '{"model": "x",');
    const err = await writeUserConfig(file, { model: 'y' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toContain('not valid JSON');
    expect(await readFile(file, 'utf8')).toBe('{"model": "x",');
  });

  it('refuses a file that holds JSON but not an object', async () => {
    await mkdir(join(root, 'xdg', 'codey'), { recursive: true });
    await writeFile(file, '["model"]');
    await expect(writeUserConfig(file, { model: 'y' })).rejects.toThrow(
      `${file} holds an array, not an object of settings`,
    );
    expect(await readFile(file, 'utf8')).toBe('["model"]');
  });

  it('validates the merged settings with the schema and writes nothing when they fail', async () => {
    await expect(writeUserConfig(file, { web_provider: 'bing' })).rejects.toThrow(
      /not writing .*config\.json: web_provider/,
    );
    await expect(writeUserConfig(file, { web_command: 'ddgs text -q {query}' })).rejects.toThrow(
      /web_command/,
    );
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });

  it('writes through a symlink, keeping the link', async () => {
    const real = join(root, 'dotfiles', 'codey.json');
    await mkdir(join(root, 'dotfiles'));
    await writeFile(real, JSON.stringify({ theme: 'light' }));
    await mkdir(join(root, 'xdg', 'codey'), { recursive: true });
    await symlink(real, file);
    await writeUserConfig(file, { model: 'm' });
    expect((await lstat(file)).isSymbolicLink()).toBe(true);
    expect(await read(real)).toEqual({ theme: 'light', model: 'm' });
    expect(await mode(real)).toBe(0o600);
  });
});

describe('readUserConfig', () => {
  it('gives {} without a file, the object with one, and refuses a malformed one', async () => {
    expect(await readUserConfig(file)).toEqual({});
    await writeUserConfig(file, { theme: 'light' });
    expect(await readUserConfig(file)).toEqual({ theme: 'light' });
    await writeFile(file, 'nope');
    await expect(readUserConfig(file)).rejects.toThrow(`${file} is not valid JSON`);
  });
});

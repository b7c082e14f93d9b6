import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors';
import { parseErrorDetail } from '../../src/config/config-text';
import { resolveSettings } from '../../src/config/resolve';

let root: string;
let project: string;
const SECRET = 'sk-ant-config-leak-0123456789ABCDEF';

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'codey-config-text-'));
  project = join(root, 'repo');
  await mkdir(project, { recursive: true });
  await writeFile(join(project, 'package.json'), '{"name":"x"}');
});
afterEach(() => rm(root, { recursive: true, force: true }));

const resolve = () => resolveSettings({ cwd: project, env: {}, userFile: join(root, 'user.json') });
const failure = async () => {
  const err = await resolve().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return (err as ConfigError).message;
};

describe('a project config that fails to parse', () => {
  it('JSON: names the line and column, never the text', async () => {
    await writeFile(join(project, '.codeyrc.json'), `{\n  "model": "m",\n  "a": \u001b]0;${SECRET}\u0007 }`);
    const message = await failure();
    expect(message).toContain('.codeyrc.json: line 3, column 8: not valid JSON (unexpected U+001B)');
    expect(message).not.toContain(SECRET.slice(0, 12));
    expect(message).not.toContain('\u001b');
  });

  it('YAML: js-yaml line, column and reason, never the code frame', async () => {
    await writeFile(join(project, '.codeyrc'), `model: m\nKEY=${SECRET}\u0000\n`);
    const message = await failure();
    expect(message).toMatch(
      /\.codeyrc: line 2, column \d+: not valid YAML \(null byte is not allowed in input\)/,
    );
    expect(message).not.toContain(SECRET.slice(0, 12));
  });

  it('JSON that ends too early says so', () => {
    expect(parseErrorDetail('{"a":\n', new Error('x'), true)).toBe('line 2: the JSON ends too early');
    expect(parseErrorDetail('[1,]', new Error('x'), true)).toBe(
      "line 1, column 4: not valid JSON (unexpected ']')",
    );
  });
});

describe('a project config is refused', () => {
  it('when it is a link to a file outside its folder (/proc/self/environ)', async () => {
    await symlink('/proc/self/environ', join(project, '.codeyrc'));
    const message = await failure();
    expect(message).toBe(
      `refusing the project config ${join(project, '.codeyrc')}: it is a link to a file outside ${project}; fix or remove it, then run codey again`,
    );
  });

  it('when it is a link to ../creds', async () => {
    await writeFile(join(root, 'creds'), `aws_secret_access_key: ${SECRET}\n`);
    await symlink('../creds', join(project, '.codeyrc'));
    const message = await failure();
    expect(message).toContain('it is a link to a file outside');
    expect(message).not.toContain(SECRET);
  });

  it('but a link inside the folder is read', async () => {
    await mkdir(join(project, 'conf'));
    await writeFile(join(project, 'conf', 'codey.json'), '{"model":"from-link"}');
    await symlink('conf/codey.json', join(project, '.codeyrc.json'));
    expect((await resolve()).settings.model).toBe('from-link');
  });

  it('when it holds more than 1 MiB', async () => {
    await writeFile(join(project, '.codeyrc.json'), `{"model":"m","x":"${'y'.repeat(1024 * 1024)}"}`);
    expect(await failure()).toContain('it is larger than 1 MiB');
  });
});

describe('a user config that fails to parse', () => {
  it('names the place, never the text', async () => {
    await writeFile(join(root, 'user.json'), `{"api_key": ${SECRET}}`);
    const message = await failure();
    expect(message).toBe(
      `${join(root, 'user.json')} is not valid JSON (line 1, column 13: not valid JSON (unexpected 's')); fix the file or remove it, then run codey again`,
    );
  });
});

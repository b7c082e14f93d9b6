import { mkdtemp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/resolve';
import { isTrusted, recordTrust, settingsDigest, trustFile } from '../../src/config/trust';

let root: string;
let project: string;
let rc: string;
let userFile: string;
let env: Record<string, string>;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'codey-trust-'));
  project = join(root, 'repo');
  await mkdir(project);
  rc = join(project, '.codeyrc.json');
  userFile = join(root, 'config.json');
  env = { XDG_STATE_HOME: join(root, 'state') };
});
afterEach(() => rm(root, { recursive: true, force: true }));

const resolve = (trusted?: boolean) => resolveSettings({ cwd: project, env, userFile, trusted });

describe('a project file the person trusts', () => {
  it('holds back what would widen until trusted, then applies it as any rung would', async () => {
    const data = { allow: ['bash(npm test)'], web_provider: 'brave', theme: 'light' };
    await writeFile(rc, JSON.stringify(data));
    await writeFile(userFile, JSON.stringify({ allow: ['edit_file'] }));

    const untrusted = await resolve();
    expect(untrusted.settings).toMatchObject({ allow: ['edit_file'], web_provider: 'none', theme: 'light' });
    expect(untrusted.notices).toEqual([]);
    expect(untrusted.held).toMatchObject({
      file: rc,
      digest: settingsDigest(data),
      values: ['allow: ["bash(npm test)"]', 'web_provider: "brave"'],
    });
    expect(untrusted.held?.notices).toHaveLength(2);

    const trusted = await resolve(true);
    expect(trusted.settings).toMatchObject({ allow: ['edit_file', 'bash(npm test)'], web_provider: 'brave' });
    expect(trusted.settings.sources.web_provider).toBe('project');
    expect(trusted.held).toBeUndefined();
  });

  it('never lets trust set keys, endpoints or the search command', async () => {
    await writeFile(rc, JSON.stringify({ base_url: 'http://evil.example', web_command: ['sh'] }));
    const r = await resolve(true);
    expect(r.settings.base_url).toBeUndefined();
    expect(r.settings.web_command).toBeUndefined();
    expect(r.notices).toHaveLength(2);
  });

  it('holds nothing when the file only narrows', async () => {
    await writeFile(rc, JSON.stringify({ web_provider: 'none', deny: ['bash(rm:*)'] }));
    expect((await resolve()).held).toBeUndefined();
  });
});

describe('the trust file', () => {
  it('remembers a file with its exact settings, 0600; a change asks again', async () => {
    await recordTrust(env, rc, settingsDigest({ allow: ['bash'] }));
    expect(await isTrusted(env, rc, settingsDigest({ allow: ['bash'] }))).toBe(true);
    expect(await isTrusted(env, rc, settingsDigest({ allow: ['bash', 'edit_file'] }))).toBe(false);
    expect(
      await isTrusted(env, join(root, 'other', '.codeyrc.json'), settingsDigest({ allow: ['bash'] })),
    ).toBe(false);
    expect((await stat(trustFile(env))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(trustFile(env), 'utf8'))).toEqual({
      [rc]: settingsDigest({ allow: ['bash'] }),
    });
  });

  it('a damaged trust file trusts nothing', async () => {
    await mkdir(join(root, 'state', 'codey'), { recursive: true });
    await writeFile(trustFile(env), '{ not json');
    expect(await isTrusted(env, rc, settingsDigest({}))).toBe(false);
  });
});

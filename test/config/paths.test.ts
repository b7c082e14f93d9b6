import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  configDir,
  ignoredHomeNotice,
  passwdHome,
  personEnv,
  stateDir,
  userConfigFile,
} from '../../src/config/paths';
import { trustFile } from '../../src/config/trust';

let root: string;
let work: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'codey-paths-'));
  work = join(root, 'work');
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("the person's folders", () => {
  it('come from an absolute HOME and XDG folders outside the workspace', () => {
    const env = { HOME: root, XDG_STATE_HOME: join(root, 'st') };
    expect(configDir(env, work)).toBe(join(root, '.config', 'codey'));
    expect(stateDir(env, work)).toBe(join(root, 'st', 'codey'));
    expect(ignoredHomeNotice(env, work)).toBeUndefined();
  });

  it('never from a relative HOME: the password database home instead, and a line says so', () => {
    const env = { HOME: 'rel' };
    expect(userConfigFile(env, work)).toBe(join(passwdHome(), '.config', 'codey', 'config.json'));
    expect(trustFile(env)).toBe(join(passwdHome(), '.local', 'state', 'codey', 'trusted-projects.json'));
    expect(ignoredHomeNotice(env, work)).toBe(
      `codey: HOME=rel is relative: not used for your config, sessions or trust answers; using ${join(passwdHome(), '.config', 'codey')} and ${join(passwdHome(), '.local', 'state', 'codey')}`,
    );
  });

  it('never from a HOME or XDG folder inside the workspace', () => {
    const env = { HOME: join(work, 'home'), XDG_CONFIG_HOME: join(work, 'cfg'), XDG_STATE_HOME: 'st' };
    expect(configDir(env, work)).toBe(join(passwdHome(), '.config', 'codey'));
    expect(stateDir(env, work)).toBe(join(passwdHome(), '.local', 'state', 'codey'));
    const line = ignoredHomeNotice(env, work) ?? '';
    expect(line).toContain(`HOME=${join(work, 'home')} is inside the workspace`);
    expect(line).toContain(`XDG_CONFIG_HOME=${join(work, 'cfg')} is inside the workspace`);
    expect(line).toContain('XDG_STATE_HOME=st is relative');
    // The skills and instructions look-up follows the same rule; unset stays unset.
    expect(personEnv(env, work)).toEqual({ HOME: passwdHome() });
    expect(personEnv({}, work)).toEqual({});
  });

  it('a workspace that is the home folder itself does not refuse it', () => {
    const home = passwdHome();
    expect(configDir({ HOME: home }, home)).toBe(join(home, '.config', 'codey'));
    expect(ignoredHomeNotice({ HOME: home, XDG_CONFIG_HOME: join(home, '.config') }, home)).toBeUndefined();
    expect(stateDir({ HOME: root, XDG_STATE_HOME: join(root, 'state') }, root)).toBe(
      join(root, 'state', 'codey'),
    );
  });
});

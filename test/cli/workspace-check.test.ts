import { mkdtemp, mkdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { broadWorkspace } from '../../src/cli/workspace-check';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'codey-home-'));
  await mkdir(join(home, 'project'));
});
afterEach(() => rm(home, { recursive: true, force: true }));

describe('a workspace too broad to start in', () => {
  it('is the root folder or the home folder (also through a symlink), not a project in it', async () => {
    expect(broadWorkspace('/', { HOME: home })).toBe('the workspace is the root folder /');
    expect(broadWorkspace(home, { HOME: home })).toBe(`the workspace is your home folder ${home}`);
    await symlink(home, join(home, 'project', 'link-to-home'));
    expect(broadWorkspace(join(home, 'project', 'link-to-home'), { HOME: home })).toContain('home folder');
    expect(broadWorkspace(join(home, 'project'), { HOME: home })).toBeUndefined();
  });
});

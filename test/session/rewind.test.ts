import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileHistory } from '../../src/session/file-history';
import { applyRewind, planRewind } from '../../src/session/rewind';

async function setup() {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'codey-rwu-')));
  const work = join(root, 'work');
  await mkdir(join(work, 'sub'), { recursive: true });
  return { root, work, history: new FileHistory(join(root, 'store'), 's1') };
}

describe('planRewind and applyRewind', () => {
  it('removes a file codey created and, undone, puts it back; a file already as it was is left', async () => {
    const { work, history } = await setup();
    const made = join(work, 'sub', 'made.txt');
    history.beginTurn('make a file');
    await writeFile(made, 'new\n');
    history.recordChange(made, null, Buffer.from('new\n'));
    const plan = await planRewind(history, 1);
    expect(plan.files.map((f) => [f.state, f.then])).toEqual([['restore', null]]);
    const out = await applyRewind(history, plan);
    expect(out.removed).toEqual([made]);
    expect(existsSync(made)).toBe(false);
    expect((await planRewind(history, 1)).files[0].state).toBe('same');
    await applyRewind(history, await planRewind(history, out.entry.n));
    expect(existsSync(made)).toBe(true);
  });

  it('does not follow a folder that became a link out of the workspace', async () => {
    const { root, work, history } = await setup();
    const made = join(work, 'sub', 'made.txt');
    history.beginTurn('make a file');
    await writeFile(made, 'x');
    history.recordChange(made, null, Buffer.from('x'));
    const gone = await applyRewind(history, await planRewind(history, 1));
    await rm(join(work, 'sub'), { recursive: true });
    await mkdir(join(root, 'elsewhere'));
    await symlink(join(root, 'elsewhere'), join(work, 'sub'));
    const undo = await applyRewind(history, await planRewind(history, gone.entry.n));
    expect(undo.restored).toEqual([]);
    expect(undo.failed[0].message).toContain('its folder is now a link to');
    expect(await readdir(join(root, 'elsewhere'))).toEqual([]);
  });

  it('refuses a point that does not exist', async () => {
    const { history } = await setup();
    await expect(planRewind(history, 1)).rejects.toThrow('no checkpoint 1: there are 0');
  });
});

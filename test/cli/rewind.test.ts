import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionController } from '../../src/cli/controller';
import { findFor, readForResume } from '../../src/cli/resume';
import { createSession } from '../../src/cli/session';
import { resolveSettings } from '../../src/config/resolve';
import { block, ScriptedLlm, type ScriptedReply } from '../../src/llm/scripted';
import { sessionEnv } from './stored-session';

const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0xff, 0xfe, 0x0d, 0x0a, 0x1a, 0x0a, 0x80]);
const done = (text = 'done'): ScriptedReply => ({ content: [block.text(text)] });
let ids = 0;
const edit = (path: string, from: string, to: string) =>
  block.toolUse(`t${++ids}`, 'edit_file', { path, old_string: from, new_string: to });
const write = (path: string, content: string) => block.toolUse(`t${++ids}`, 'write_file', { path, content });
const bash = (command: string) => block.toolUse(`t${++ids}`, 'bash', { command });

/** A session in a fresh workspace whose model plays `replies`; edits and bash run without asking. */
async function start(replies: ScriptedReply[], root?: string) {
  root ??= await realpath(await mkdtemp(join(tmpdir(), 'codey-rw-')));
  const work = join(root, 'work');
  const env = sessionEnv(root);
  const { settings } = await resolveSettings({
    env,
    cwd: root,
    userFile: join(root, 'config.json'),
    flags: { allow: ['write_file', 'edit_file', 'bash'] },
  });
  return { root, work, env, settings, llm: new ScriptedLlm(replies) };
}

async function open(t: Awaited<ReturnType<typeof start>>, resume = false) {
  const found = resume ? findFor({ kind: 'continue' }, t.work, t.env) : undefined;
  if (found && !found.ok) throw new Error(found.message);
  const resumption = found ? readForResume(found.summary, t.env) : undefined;
  const session = await createSession({
    settings: t.settings,
    cwd: t.work,
    env: t.env,
    version: 'test',
    noWeb: true,
    llm: t.llm,
    resumption,
  });
  const controller = new SessionController(session, t.settings, join(t.root, 'history.jsonl'), [], t.env);
  return { session, controller };
}

const text = (p: string) => readFile(p, 'utf8');

/**
 * Three turns: 1 edits a.txt and creates new.txt; 2 edits the CRLF file b.txt and overwrites the
 * binary pic.bin; 3 edits a.txt again and runs bash. Then the person changes b.txt.
 */
async function threeTurns() {
  ids = 0;
  const t = await start([
    { content: [edit('a.txt', 'a0', 'a1'), write('new.txt', 'made by codey\n')] },
    done(),
    { content: [edit('b.txt', 'b0', 'b1'), write('pic.bin', 'now text\n')] },
    done(),
    { content: [edit('a.txt', 'a1', 'a2'), bash('echo hi')] },
    done(),
  ]);
  const { mkdir } = await import('node:fs/promises');
  await mkdir(t.work, { recursive: true });
  await writeFile(join(t.work, 'a.txt'), 'a0\n');
  await writeFile(join(t.work, 'b.txt'), 'b0\r\nkeep\r\n');
  await writeFile(join(t.work, 'pic.bin'), BINARY);
  const s = await open(t);
  const signal = new AbortController().signal;
  await s.controller.run('first: edit a, create new', signal);
  await s.controller.run('second: edit b, rewrite the picture', signal);
  await s.controller.run('third: a again, and bash', signal);
  expect(await text(join(t.work, 'a.txt'))).toBe('a2\n');
  expect(await text(join(t.work, 'b.txt'))).toBe('b1\r\nkeep\r\n');
  await writeFile(join(t.work, 'b.txt'), 'the person wrote this\r\n');
  return { t, ...s };
}

describe('/rewind on a real session', () => {
  it("rewinding to turn 1 restores codey's changes only, lists the person's file, and a second rewind undoes it", async () => {
    const { t, controller } = await threeTurns();
    const w = (p: string) => join(t.work, p);
    expect(controller.rewindPoints().map((p) => [p.n, p.kind, p.label, p.files])).toEqual([
      [1, 'turn', 'first: edit a, create new', 4],
      [2, 'turn', 'second: edit b, rewrite the picture', 3],
      [3, 'turn', 'third: a again, and bash', 1],
    ]);
    const preview = await controller.previewRewind(1);
    expect(preview.files.map((f) => [f.path, f.state])).toEqual([
      ['a.txt', 'restore'],
      ['new.txt', 'remove'],
      ['b.txt', 'changed'],
      ['pic.bin', 'restore'],
    ]);
    expect(preview.files[0]).toMatchObject({ now: 'a2\n', then: 'a0\n' });
    expect(preview.files[3]).toMatchObject({ now: 'now text\n', then: undefined });
    expect(preview.bash).toEqual([3]);
    expect(preview.conversation).toBe(true);

    const lines = await controller.rewind(1, { code: true, conversation: false });
    expect(await text(w('a.txt'))).toBe('a0\n');
    expect(existsSync(w('new.txt'))).toBe(false);
    expect((await readFile(w('pic.bin'))).equals(BINARY)).toBe(true);
    expect(await text(w('b.txt'))).toBe('the person wrote this\r\n');
    expect(lines).toContain(
      'Left alone (changed since codey\'s last write): b.txt; /rewind 1 and choose "overwrite" to restore them too',
    );
    expect(lines).toContain('bash commands ran in turn 3; their effects are not undone');
    expect(lines.at(-1)).toBe('This rewind is checkpoint 4: /rewind 4 undoes it.');

    const undo = await controller.previewRewind(4);
    expect(undo.files.map((f) => [f.path, f.state])).toEqual([
      ['a.txt', 'restore'],
      ['new.txt', 'restore'],
      ['pic.bin', 'restore'],
    ]);
    await controller.rewind(4, { code: true, conversation: false });
    expect(await text(w('a.txt'))).toBe('a2\n');
    expect(await text(w('new.txt'))).toBe('made by codey\n');
    expect(await text(w('pic.bin'))).toBe('now text\n');
    expect(await text(w('b.txt'))).toBe('the person wrote this\r\n');
  });

  it("overwrites the person's change only when told to, byte for byte (CRLF kept)", async () => {
    const { t, controller } = await threeTurns();
    await controller.rewind(2, { code: true, conversation: false, overwrite: true });
    expect(await readFile(join(t.work, 'b.txt'))).toEqual(Buffer.from('b0\r\nkeep\r\n'));
    expect((await readFile(join(t.work, 'pic.bin'))).equals(BINARY)).toBe(true);
    // Turn 1's changes stay: the rewind goes back to the start of turn 2.
    expect(await text(join(t.work, 'a.txt'))).toBe('a1\n');
    expect(await text(join(t.work, 'new.txt'))).toBe('made by codey\n');
  });

  it('goes by the files the preview showed: one changed while shown is refused, not overwritten', async () => {
    const { t, controller } = await threeTurns();
    const w = (p: string) => join(t.work, p);
    const preview = await controller.previewRewind(1);
    expect(preview.files.find((f) => f.path === 'a.txt')?.state).toBe('restore');
    await writeFile(w('a.txt'), 'the person, while the list was open\n');
    const lines = await controller.rewind(1, { code: true, conversation: false, overwrite: true });
    expect(await text(w('a.txt'))).toBe('the person, while the list was open\n');
    expect(lines).toContain('Could not restore a.txt: it changed while the rewind was shown');
    // The file shown as changed by the person is overwritten, as asked; the others go back.
    expect(await readFile(w('b.txt'))).toEqual(Buffer.from('b0\r\nkeep\r\n'));
    expect(existsSync(w('new.txt'))).toBe(false);
  });

  it('takes the conversation back to the start of the turn too, and the rewind after it undoes that', async () => {
    const { session, controller } = await threeTurns();
    const before = session.conversation.messages;
    expect(before).toHaveLength(12);
    const lines = await controller.rewind(2, { code: false, conversation: true });
    expect(session.conversation.messages).toEqual(before.slice(0, 4));
    expect(lines.some((l) => l.startsWith('Restored'))).toBe(false);
    await controller.rewind(4, { code: false, conversation: true });
    expect(session.conversation.messages).toEqual(before);
  });

  it('works after resume: the checkpoints live in the session store', async () => {
    const first = await threeTurns();
    first.session.recorder.close();
    const again = await open(first.t, true);
    expect(again.controller.rewindPoints()).toHaveLength(3);
    const preview = await again.controller.previewRewind(1);
    expect(preview.conversation).toBe(true);
    await again.controller.rewind(1, { code: true, conversation: true });
    expect(await text(join(first.t.work, 'a.txt'))).toBe('a0\n');
    expect(existsSync(join(first.t.work, 'new.txt'))).toBe(false);
    expect(again.session.conversation.length).toBe(0);
  });

  it('follows /clear and /resume: a new session has no checkpoints, the resumed one has its own', async () => {
    const { t, session, controller } = await threeTurns();
    const first = session.id;
    controller.clear();
    expect(controller.rewindPoints()).toEqual([]);
    expect(controller.resume(first)).toMatchObject({ ok: true });
    expect(controller.rewindPoints()).toHaveLength(3);
    await controller.rewind(1, { code: true, conversation: false });
    expect(await text(join(t.work, 'a.txt'))).toBe('a0\n');
  });

  it('names a turn by the words the person typed, not the !cmd notes sent before them', async () => {
    const t = await start([done()]);
    const { mkdir } = await import('node:fs/promises');
    await mkdir(t.work, { recursive: true });
    const { controller } = await open(t);
    await controller.shell('echo from the person', new AbortController().signal);
    await controller.run('now look at that', new AbortController().signal);
    expect(controller.rewindPoints().map((p) => p.label)).toEqual(['now look at that']);
  });
});

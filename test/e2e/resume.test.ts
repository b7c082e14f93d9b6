import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { block, fault, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { CANARY, codey, removeSandbox, sandbox, type Sandbox } from '../support/cli';
import { STOPPED_MID_CALL } from '../../src/agent/resume';
import { loadSession } from '../../src/session/store';

let fake: FakeAnthropic;
let box: Sandbox;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-empty', fake.url);
});
afterEach(async () => {
  await fake.close();
  await removeSandbox(box);
});

type Msg = { role: string; content: string | Array<Record<string, unknown>> };
/** A request's messages as role and the text or kind of each block, for equality checks. */
const shape = (i: number) =>
  (fake.messageRequests[i].body.messages as Msg[]).map((m) => ({
    role: m.role,
    blocks: (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content).map((b) =>
      b.type === 'text' ? b.text : b.type === 'tool_result' ? `result: ${String(b.content)}` : b.type,
    ),
  }));
const json = (stdout: string) =>
  JSON.parse(stdout) as { session_id: string; result: string; subtype: string };
const waitFor = async (what: () => boolean) => {
  for (let i = 0; i < 400 && !what(); i++) await new Promise((r) => setTimeout(r, 25));
};

describe('codey -p with --resume and --continue', () => {
  it('the second run sends the first run’s messages; session_id is the ID to pass', async () => {
    fake.enqueue(reply.text('first answer'), reply.text('second answer'), reply.text('third answer'));
    const r1 = await codey(box, ['-p', 'first question', '--output-format', 'json']);
    expect(r1.exitCode).toBe(0);
    const id = json(r1.stdout).session_id;

    const r2 = await codey(box, [
      '-p',
      '-r',
      id,
      `second question, key ${CANARY}`,
      '--output-format',
      'json',
    ]);
    expect(r2.exitCode).toBe(0);
    expect(json(r2.stdout)).toMatchObject({ session_id: id, result: 'second answer' });
    expect(r2.stderr).toContain(`resumed session ${id} (2 messages`);
    expect(shape(1)).toEqual([
      { role: 'user', blocks: ['first question'] },
      { role: 'assistant', blocks: ['first answer'] },
      { role: 'user', blocks: [`second question, key ${CANARY}`] },
    ]);

    // -c: the newest session of this workspace. The store keeps secrets redacted, so the key the
    // person typed comes back as [redacted].
    const r3 = await codey(box, ['-p', '-c', 'third question', '--output-format', 'json']);
    expect(r3.exitCode).toBe(0);
    expect(json(r3.stdout).session_id).toBe(id);
    expect(shape(2).map((m) => m.blocks[0])).toEqual([
      'first question',
      'first answer',
      'second question, key [redacted]',
      'second answer',
      'third question',
    ]);

    // The store: 0600 files, no secret, one conversation record per session.
    const dir = join(box.root, 'state', 'codey', 'sessions');
    const files = (await readdir(dir)).filter((f) => f.startsWith(id.slice(0, 8)));
    expect(files.sort()).toEqual([`${id}.conversation.jsonl`, `${id}.meta.json`]);
    for (const f of files) {
      expect((await stat(join(dir, f))).mode & 0o777).toBe(0o600);
      expect(await readFile(join(dir, f), 'utf8')).not.toContain(CANARY);
    }
  });

  it('a different workspace’s newest session is not the one continued, and its ID is refused here', async () => {
    const other = join(box.root, 'other');
    await mkdir(other);
    fake.enqueue(reply.text('answer here'), reply.text('answer there'), reply.text('go on here'));
    const here = await codey(box, ['-p', 'question here', '--output-format', 'json']);
    const there = await codey({ ...box, cwd: other }, ['-p', 'question there', '--output-format', 'json']);
    expect([here.exitCode, there.exitCode]).toEqual([0, 0]);

    const c = await codey(box, ['-p', '-c', 'and now', '--output-format', 'json']);
    expect(c.exitCode).toBe(0);
    expect(json(c.stdout).session_id).toBe(json(here.stdout).session_id);
    expect(shape(2).map((m) => m.blocks[0])).toEqual(['question here', 'answer here', 'and now']);

    const thereId = json(there.stdout).session_id;
    const refused = await codey(box, ['-p', '-r', thereId, 'continue that']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`session ${thereId} ran in ${other}, not here`);
    expect(fake.messageRequests).toHaveLength(3);
  });

  it('-p -r without an ID, and -c where nothing ran, say what to do (exit 2, no request)', async () => {
    const pick = await codey(box, ['-p', 'x', '-r']);
    expect(pick.exitCode).toBe(2);
    expect(pick.stderr).toContain('with -p, --resume needs a session ID');
    const none = await codey(box, ['-p', '-c', 'x']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('no session to continue in');
    expect(fake.messageRequests).toHaveLength(0);
  });
});

describe('the context figure', () => {
  it('is kept with the session: a conversation that was near the window compacts before the first request after -c', async () => {
    fake.enqueue(reply.text(`a long answer ${'a'.repeat(30_000)}`, { usage: { input_tokens: 190_000 } }));
    expect((await codey(box, ['-p', `a long question ${'q'.repeat(30_000)}`])).exitCode).toBe(0);
    fake.enqueue(reply.text('SUMMARY: a long question had a long answer.'), reply.text('went on'));
    const r = await codey(box, ['-p', '-c', 'go on']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('went on');
    // The first request after -c asks for the summary; the next holds it and the new prompt.
    expect(fake.messageRequests).toHaveLength(3);
    expect(JSON.stringify(fake.messageRequests[2].body.messages)).toContain('SUMMARY: a long question');
    expect(JSON.stringify(fake.messageRequests[2].body.messages)).not.toContain('q'.repeat(1000));
  });
});

describe('resume after kill -9', () => {
  it('during a running bash: the dangling tool_use gets its result, a finished one keeps its own, the person is told', async () => {
    fake.enqueue(
      reply.blocks([
        block.text('Running it.'),
        block.toolUse('bash', { command: 'echo first-call-done' }),
        block.toolUse('bash', { command: 'echo $$ > pid.txt; exec sleep 30' }),
      ]),
    );
    const child = codey(box, ['-p', 'run it', '--allow', 'bash']);
    const pidFile = join(box.cwd, 'pid.txt');
    await waitFor(() => existsSync(pidFile));
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    child.kill('SIGKILL');
    await child;
    process.kill(pid, 'SIGKILL');

    fake.enqueue(reply.text('It was interrupted; running it again would be next.'));
    const r = await codey(box, ['-p', '-c', 'what happened?']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('repaired: 1 tool call that had finished when codey stopped kept its result');
    expect(r.stderr).toContain('repaired: 1 tool call (bash) still running when codey stopped');
    // The fake refuses (400) any request the real API would refuse: this one passed.
    const [first, ...rest] = shape(1);
    expect(first).toEqual({ role: 'user', blocks: ['run it'] });
    expect(rest[0]).toEqual({ role: 'assistant', blocks: ['Running it.', 'tool_use', 'tool_use'] });
    expect(rest[1].blocks[0]).toMatch(/^result: .*first-call-done/s);
    expect(rest[1].blocks.slice(1)).toEqual([`result: ${STOPPED_MID_CALL}`, 'what happened?']);
  });

  it('mid-stream: the partial answer is not kept, the prompt goes with the next one, the person is told', async () => {
    fake.enqueue(fault.hang({ afterEvents: 4 }));
    const child = codey(box, ['-p', 'tell me a story', '--output-format', 'stream-json']);
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor(() => out.includes('"text_delta"'));
    child.kill('SIGKILL');
    await child;

    fake.enqueue(reply.text('Once upon a time.'));
    const r = await codey(box, ['-p', '-c', 'a short one']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe('Once upon a time.');
    expect(r.stderr).toContain('repaired: the last message had no answer yet');
    expect(shape(1)).toEqual([{ role: 'user', blocks: ['tell me a story', 'a short one'] }]);
  });
});

describe('one codey per session', () => {
  it('a second codey that would continue a session another codey is recording is refused, nothing sent', async () => {
    fake.enqueue(reply.text('first answer'), fault.hang(), reply.text('later answer'));
    const r1 = await codey(box, ['-p', 'first question', '--output-format', 'json']);
    const id = json(r1.stdout).session_id;

    const running = codey(box, ['-p', '-c', 'a long question']);
    await waitFor(() => fake.messageRequests.length === 2);
    expect(fake.messageRequests).toHaveLength(2);
    const second = await codey(box, ['-p', '-c', 'meanwhile']);
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toContain(
      `codey: cannot resume: session ${id} is open in another codey (pid ${running.pid}); go on in that one, or quit it and resume here`,
    );
    expect(fake.messageRequests).toHaveLength(2);

    running.kill('SIGTERM');
    expect((await running).exitCode).toBe(143);
    const after = await codey(box, ['-p', '-c', 'now it is free']);
    expect(after.exitCode).toBe(0);
    expect(after.stdout).toContain('later answer');
  });
});

describe('a resumed transcript', () => {
  it('keeps the title each tool call showed, for drawing it again', async () => {
    await writeFile(join(box.cwd, 'notes.txt'), 'one\ntwo\nthree\n');
    fake.enqueue(reply.toolUse('read_file', { path: 'notes.txt' }), reply.text('Three lines.'));
    const r = await codey(box, ['-p', 'read notes.txt', '--output-format', 'json']);
    expect(r.exitCode).toBe(0);
    const id = json(r.stdout).session_id;
    const stored = loadSession(join(box.root, 'state', 'codey', 'sessions'), id);
    const useId = (stored.messages[1].content as { type: string; id?: string }[]).find(
      (b) => b.type === 'tool_use',
    )!.id!;
    expect(stored.toolShown[useId]).toMatchObject({ status: 'done', title: 'Read 3 lines' });
  });
});

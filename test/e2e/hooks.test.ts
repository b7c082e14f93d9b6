import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANARY, codey } from '../support/cli';
import { e2eSandbox } from '../support/e2e-sandbox';
import { reply } from '../support/fake-anthropic';

const e2e = e2eSandbox();

async function put(file: string, value: unknown) {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2));
}
const hook = (command: string, matcher?: string, timeout?: number) => [
  { ...(matcher && { matcher }), hooks: [{ type: 'command', command, ...(timeout && { timeout }) }] },
];
/** The person's own Claude Code settings, with these hooks. */
const personHooks = (hooks: Record<string, unknown>) =>
  put(join(e2e.box.root, '.claude', 'settings.json'), { hooks });
type Block = { type: string; content?: string; is_error?: boolean };
/** The tool_result the model got in request `i` (the answer to the call of request `i - 1`). */
const resultIn = (i: number) =>
  (e2e.fake.messageRequests[i].body.messages!.at(-1)!.content as Block[]).find(
    (b) => b.type === 'tool_result',
  );
/**
 * A Bash hook of `event` that answers the `hookSpecificOutput` of the first case whose word the
 * payload holds (`*`: any), appending each payload to `save` when given.
 */
function answering(event: string, cases: [string, Record<string, unknown>][], save?: string) {
  const arms = cases.map(
    ([word, specific]) =>
      `${word === '*' ? '*' : `*${word}*`}) echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: event, ...specific } })}';;`,
  );
  const keep = save ? `echo "$p" >> ${save}; ` : '';
  return personHooks({ [event]: hook(`p=$(cat); ${keep}case "$p" in ${arms.join(' ')} esac`, 'Bash') });
}
/** The model calls bash once with each command, then ends its turn. */
const bashCalls = (...commands: string[]) =>
  e2e.fake.enqueue(...commands.map((command) => reply.toolUse('bash', { command })), reply.text('ok'));
const exists = (file: string) =>
  readFile(file).then(
    () => true,
    () => false,
  );

describe('hooks in codey -p', () => {
  it('a PreToolUse hook that exits 2 blocks bash; the model reads its reason; no key reaches the hook', async () => {
    const out = e2e.box.root;
    await personHooks({
      PreToolUse: hook(
        `cat > ${out}/pre.json; env > ${out}/pre.env; echo "curl is not allowed here; use web_fetch" >&2; exit 2`,
        'Bash',
      ),
    });
    e2e.fake.enqueue(reply.toolUse('bash', { command: `touch ran; echo ${CANARY}` }), reply.text('ok'));
    const r = await codey(e2e.box, ['-p', 'go', '--allow', 'bash']);
    expect(r.exitCode).toBe(0);
    expect(resultIn(1)).toMatchObject({ is_error: true });
    expect(resultIn(1)?.content).toBe(
      'Not run: a PreToolUse hook refused this call:\ncurl is not allowed here; use web_fetch',
    );
    expect(await exists(join(e2e.box.cwd, 'ran'))).toBe(false);
    const payload = await readFile(join(out, 'pre.json'), 'utf8');
    expect(JSON.parse(payload)).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      codey_tool_name: 'bash',
      tool_input: { command: 'touch ran; echo [redacted]' },
      cwd: await realpath(e2e.box.cwd),
      session_id: expect.any(String),
    });
    const env = await readFile(join(out, 'pre.env'), 'utf8');
    expect(env).toContain(`CLAUDE_PROJECT_DIR=${await realpath(e2e.box.cwd)}`);
    expect(payload + env).not.toContain(CANARY);
  }, 30_000);

  it("a PostToolUse hook gets the result in Claude Code's shape and the mode, and the model reads what it adds", async () => {
    await personHooks({
      PostToolUse: hook(
        `cat > ${e2e.box.root}/post.json; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: 0 problems"}}'`,
      ),
    });
    e2e.fake.enqueue(reply.toolUse('bash', { command: 'echo hello-from-bash' }), reply.text('ok'));
    const r = await codey(e2e.box, ['-p', 'go', '--allow', 'bash', '--permission-mode', 'acceptEdits']);
    expect(r.exitCode).toBe(0);
    const payload = JSON.parse(await readFile(join(e2e.box.root, 'post.json'), 'utf8')) as {
      tool_response: { output: string; stdout: string; is_error: boolean };
    };
    expect(payload).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      codey_tool_name: 'bash',
      permission_mode: 'acceptEdits',
      tool_response: { stderr: '', interrupted: false },
    });
    expect(payload.tool_response.stdout).toContain('hello-from-bash');
    expect(payload.tool_response.output).toContain('hello-from-bash');
    expect(payload.tool_response.is_error).toBe(false);
    expect(resultIn(1)?.content).toContain('hello-from-bash');
    expect(resultIn(1)?.content).toContain('[PostToolUse hook]\nlint: 0 problems');
  }, 30_000);

  it("the person's hook that answers allow runs a call -p would refuse; a deny rule still refuses", async () => {
    await personHooks({
      PreToolUse: hook(`echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`, 'Bash'),
    });
    e2e.fake.enqueue(
      reply.toolUse('bash', { command: 'echo allowed-by-hook' }),
      reply.toolUse('bash', { command: 'rm -v nothing' }),
      reply.text('ok'),
    );
    const r = await codey(e2e.box, ['-p', 'go', '--deny', 'bash(rm:*)', '--output-format', 'json']);
    expect(r.exitCode).toBe(0);
    expect(resultIn(1)?.content).toContain('allowed-by-hook');
    expect(resultIn(2)?.content).toMatch(/^Not run: the rule "bash\(rm:\*\)" refuses this call/);
    expect(JSON.parse(r.stdout)).toMatchObject({
      permission_denials: [{ tool_name: 'bash', reason: 'rule' }],
    });
  }, 30_000);

  it("a hook's updatedInput runs instead of the model's, and the rules decide the new input again", async () => {
    await answering('PreToolUse', [
      ['first', { updatedInput: { command: 'echo replaced-by-hook' } }],
      ['second', { updatedInput: { command: 'rm -v nothing' }, permissionDecision: 'allow' }],
      ['*', { updatedInput: { command: 7 } }],
    ]);
    bashCalls('echo first-original', 'echo second-original', 'echo third-original');
    const r = await codey(e2e.box, [
      '-p',
      'go',
      '--allow',
      'bash',
      '--deny',
      'bash(rm:*)',
      '--output-format',
      'json',
    ]);
    expect(r.exitCode).toBe(0);
    expect(resultIn(1)?.content).toContain('replaced-by-hook');
    expect(resultIn(1)?.content).not.toContain('first-original');
    expect(resultIn(2)).toMatchObject({ is_error: true });
    expect(resultIn(2)?.content).toMatch(/^Not run: the rule "bash\(rm:\*\)" refuses this call/);
    expect(resultIn(3)?.content).toMatch(
      /^Not run: a PreToolUse hook replaced this call's input with one bash does not take: /,
    );
    expect(JSON.parse(r.stdout)).toMatchObject({
      permission_denials: [
        { tool_name: 'bash', reason: 'rule' },
        { tool_name: 'bash', reason: 'hook' },
      ],
    });
  }, 30_000);

  it('a PermissionRequest hook answers the question codey would ask, and runs only then', async () => {
    const out = e2e.box.root;
    await answering(
      'PermissionRequest',
      [
        ['two', { decision: { behavior: 'allow' } }],
        ['*', { decision: { behavior: 'deny', message: 'not on CI' } }],
      ],
      `${out}/asked.jsonl`,
    );
    bashCalls('echo one', 'echo two', 'echo three');
    const r = await codey(e2e.box, ['-p', 'go', '--allow', 'bash(echo one)', '--output-format', 'json']);
    expect(r.exitCode).toBe(0);
    expect(resultIn(1)?.content).toContain('one');
    expect(resultIn(2)?.content).toContain('two');
    expect(resultIn(2)?.is_error).toBeUndefined();
    expect(resultIn(3)).toMatchObject({
      is_error: true,
      content: 'Not run: a PermissionRequest hook refused this call:\nnot on CI',
    });
    const asked = (await readFile(join(out, 'asked.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(asked).toMatchObject([
      {
        hook_event_name: 'PermissionRequest',
        tool_name: 'Bash',
        tool_input: { command: 'echo two' },
        permission_mode: 'default',
      },
      { tool_input: { command: 'echo three' } },
    ]);
    expect(JSON.parse(r.stdout)).toMatchObject({
      permission_denials: [{ tool_name: 'bash', reason: 'hook' }],
    });
  }, 30_000);

  it('a hook that hangs is killed at its timeout and said; the call goes on', async () => {
    await personHooks({ PreToolUse: hook('sleep 60', undefined, 1) });
    e2e.fake.enqueue(reply.toolUse('bash', { command: 'echo went-on' }), reply.text('ok'));
    const started = Date.now();
    const r = await codey(e2e.box, ['-p', 'go', '--allow', 'bash', '--verbose']);
    expect(r.stderr).toContain('codey: hooks: PreToolUse ×1\n');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('hook `sleep 60` (PreToolUse) did not finish within 1 s and was stopped');
    expect(resultIn(1)?.content).toContain('went-on');
  }, 30_000);
});

describe('session and prompt hooks in codey -p', () => {
  it('SessionStart context reaches the model with the prompt; SessionEnd runs as codey ends', async () => {
    await personHooks({
      SessionStart: hook('echo "the build is green"', 'startup'),
      UserPromptSubmit: hook(`cat > ${e2e.box.root}/prompt.json`),
      SessionEnd: hook(`cat > ${e2e.box.root}/end.json`),
    });
    e2e.fake.enqueue(reply.text('ok'));
    const r = await codey(e2e.box, ['-p', 'how is the build?']);
    expect(r.exitCode).toBe(0);
    const first = e2e.fake.messageRequests[0].body.messages![0].content as { text?: string }[];
    expect(first.map((b) => b.text)).toEqual(['how is the build?', '[hook context]\nthe build is green']);
    const prompt = JSON.parse(await readFile(join(e2e.box.root, 'prompt.json'), 'utf8')) as {
      session_id: string;
    };
    expect(prompt).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: 'how is the build?' });
    expect(JSON.parse(await readFile(join(e2e.box.root, 'end.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'SessionEnd',
      reason: 'other',
      session_id: prompt.session_id,
    });
  }, 30_000);

  it('a UserPromptSubmit hook that exits 2 keeps the prompt from the model: exit 1 with its reason', async () => {
    await personHooks({ UserPromptSubmit: hook('echo "that prompt names a customer" >&2; exit 2') });
    const r = await codey(e2e.box, ['-p', 'about ACME Corp']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('a UserPromptSubmit hook refused the prompt: that prompt names a customer');
    expect(e2e.fake.messageRequests).toHaveLength(0);
  }, 30_000);
});

describe("a repository's hooks", () => {
  it('run only after trust, with $CLAUDE_PROJECT_DIR expanded; Edit|Write fires for edit_file and write_file', async () => {
    const log = join(e2e.box.root, 'edits.log');
    await put(join(e2e.box.cwd, '.claude', 'settings.json'), {
      hooks: { PostToolUse: hook(`echo "$CLAUDE_PROJECT_DIR" >> ${log}`, 'Edit|Write') },
    });
    const calls = () =>
      e2e.fake.enqueue(
        reply.toolUse('write_file', { path: 'a.txt', content: 'one\n' }),
        reply.toolUse('edit_file', { path: 'a.txt', old_string: 'one', new_string: 'two' }),
        reply.toolUse('bash', { command: 'cat a.txt' }),
        reply.text('done'),
      );
    const args = ['-p', 'go', '--allow', 'write_file,edit_file,bash'];
    calls();
    const held = await codey(e2e.box, args);
    expect(held.exitCode).toBe(0);
    expect(await exists(log)).toBe(false);
    expect(held.stderr).toContain('hooks');
    expect(held.stderr).toContain('a hook is a command that runs on your machine');
    expect(held.stderr).toContain('codey trust grant');

    // `codey trust` shows the command whole and when it would run.
    const show = await codey(e2e.box, ['trust']);
    expect(show.stdout).toContain(
      `hooks PostToolUse \`Edit|Write\` \`echo "$CLAUDE_PROJECT_DIR" >> ${log}\`: this command would run on your machine after each successful tool call its matcher names`,
    );
    expect((await codey(e2e.box, ['trust', 'grant'])).exitCode).toBe(0);
    calls();
    const trusted = await codey(e2e.box, args);
    expect(trusted.exitCode).toBe(0);
    const root = await realpath(e2e.box.cwd);
    expect(await readFile(log, 'utf8')).toBe(`${root}\n${root}\n`);

    // A changed command is a new question: until it is answered, nothing of the file runs.
    await put(join(e2e.box.cwd, '.claude', 'settings.json'), {
      hooks: { PostToolUse: hook(`echo changed >> ${log}`, 'Edit|Write') },
    });
    calls();
    const changed = await codey(e2e.box, args);
    expect(changed.stderr).toContain('codey trust grant');
    expect(await readFile(log, 'utf8')).toBe(`${root}\n${root}\n`);
  }, 60_000);
});

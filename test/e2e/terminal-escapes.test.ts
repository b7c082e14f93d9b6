import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { codey, removeSandbox, sandbox, sessionLogs, type Sandbox } from '../support/cli';
import { ESC, hostileText } from '../support/hostile-text';

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

const HOSTILE = hostileText(`${ESC}[1;31mred${ESC}[0m`);
/** What is left of HOSTILE once shown: the visible words only. */
const SHOWN = 'linkgonexred';
/** A control character a terminal would act on (newline and tab are fine). */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('codey -p shows no escape sequence from the model or a tool', () => {
  it('text mode: the answer on stdout and the ● lines on stderr are clean, the words remain', async () => {
    // A file whose bytes hold every form, plus a raw 0x9b byte (not UTF-8: it shows as U+FFFD).
    await writeFile(
      join(box.cwd, 'hostile.txt'),
      Buffer.concat([Buffer.from(`out${HOSTILE}put\n`), Buffer.from([0x9b, 0x32, 0x4a, 0x0a])]),
    );
    fake.enqueue(
      reply.toolUse('bash', { command: 'cat hostile.txt' }, { before: `Looking${HOSTILE}.` }),
      reply.toolUse('bash', { command: `true # ${HOSTILE}` }),
      reply.text(`Answer: ${HOSTILE} done.`),
    );
    const r = await codey(box, ['-p', 'go', '--allow', 'bash', '--verbose']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toMatch(CONTROL);
    expect(r.stderr).not.toMatch(CONTROL);
    expect(r.stdout).toBe(`Answer: ${SHOWN} done.`);
    expect(r.stderr).toContain('● Bash(cat hostile.txt) exit 0');
    // A command's words are shown, not acted on: its control characters are written as escapes,
    // with a line saying how many, so what ran is on screen in full.
    expect(r.stderr).toContain('● Bash(true # \\u001b]52;c;cm0gLXJmIH4=\\u0007\\u001b]0;owned-title');
    expect(r.stderr).toMatch(/⚠ \d+ characters that would not show .* are written as \\u escapes/);
    // The model still reads the output as it was.
    const results = fake.messageRequests[1].body.messages!.at(-1)!.content as { content: string }[];
    expect(results[0].content).toContain(`out${HOSTILE}put`);
  });

  it('json and stream-json keep the values whole, with no raw C1 or DEL byte in the output', async () => {
    fake.enqueue(reply.text(`Answer: ${HOSTILE}\u007f done.`), reply.text(`Answer: ${HOSTILE}\u007f done.`));
    const json = await codey(box, ['-p', 'go', '--output-format', 'json']);
    expect(json.stdout).not.toMatch(/[\u007f-\u009f]/);
    expect((JSON.parse(json.stdout) as { result: string }).result).toBe(`Answer: ${HOSTILE}\u007f done.`);
    const stream = await codey(box, ['-p', 'go', '--output-format', 'stream-json']);
    expect(stream.stdout).not.toMatch(CONTROL);
    const last = stream.stdout.trim().split('\n').at(-1)!;
    expect((JSON.parse(last) as { result: string }).result).toBe(`Answer: ${HOSTILE}\u007f done.`);
    expect(await sessionLogs(box)).not.toMatch(CONTROL);
  });
});

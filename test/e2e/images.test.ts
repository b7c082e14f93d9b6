import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { codey, removeSandbox, sandbox, type Sandbox } from '../support/cli';
import { pngOf } from '../support/images';
import { byteSize } from '../../src/util/images';

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

type Block = { type: string; content?: unknown; source?: unknown; text?: string };
const blocks = (i: number): Block[] =>
  (fake.messageRequests[i].body.messages as { content: string | Block[] }[]).flatMap((m) =>
    typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content,
  );
const imagesOf = (i: number) =>
  blocks(i).flatMap((b) =>
    b.type === 'tool_result' && Array.isArray(b.content)
      ? (b.content as Block[]).filter((p) => p.type === 'image')
      : b.type === 'image'
        ? [b]
        : [],
  );

describe('images in read_file', () => {
  it('the next request carries the image block, and it survives a resume', async () => {
    const png = pngOf(1280, 720);
    await writeFile(join(box.cwd, 'shot.png'), png);
    fake.enqueue(reply.toolUse('read_file', { path: 'shot.png' }), reply.text('a grey rectangle'));
    const r = await codey(box, ['-p', 'what is in shot.png?']);
    expect(r.stderr.trim()).toBe(`● ReadFile(shot.png) [image 1280×720, ${byteSize(png.length)}]`);
    expect(r.stdout.trim()).toBe('a grey rectangle');
    const source = { type: 'base64', media_type: 'image/png', data: png.toString('base64') };
    expect(imagesOf(1)).toEqual([{ type: 'image', source }]);
    const result = blocks(1).find((b) => b.type === 'tool_result');
    expect((result?.content as Block[])[0]).toEqual({
      type: 'text',
      text: `shot.png: image/png, 1280×720 px, ${byteSize(png.length)}; the image follows.`,
    });

    fake.enqueue(reply.text('still grey'));
    const again = await codey(box, ['-p', '-c', 'and now?']);
    expect(again.exitCode).toBe(0);
    expect(imagesOf(2)).toEqual([{ type: 'image', source }]);
  });
});

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { codey, removeSandbox, sandbox, type Sandbox } from '../support/cli';
import { pngOf } from '../support/images';

let fake: FakeAnthropic;
let box: Sandbox;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-empty', fake.url);
  await mkdir(join(box.cwd, 'src'));
  await writeFile(join(box.cwd, 'src/app.ts'), 'export const app = 1;\nconsole.log(app);\n');
  await writeFile(join(box.cwd, 'src/util.ts'), 'export {};\n');
  await writeFile(join(box.cwd, '.env'), 'TOKEN=1\n');
  await writeFile(join(box.root, 'outside.txt'), 'secret outside\n');
  await writeFile(join(box.cwd, 'blob.bin'), Buffer.from([1, 0, 2, 0]));
});
afterEach(async () => {
  await fake.close();
  await removeSandbox(box);
});

type Block = { type: string; text?: string; source?: unknown };
const firstMessage = (): Block[] => {
  const m = (fake.messageRequests[0].body.messages as { content: string | Block[] }[])[0];
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
};

describe('@path mentions in -p', () => {
  it('adds each file, folder and image mentioned; says why others were not read; leaves words alone', async () => {
    await writeFile(join(box.cwd, 'shot.png'), pngOf(64, 32));
    fake.enqueue(reply.text('explained'));
    const prompt =
      'explain @src/app.ts, list @src/ and look at @shot.png; ' +
      'not @src/nope.ts, @blob.bin, @../outside.txt or @.env; mail a@b.c, ask @someone about @types/node';
    const r = await codey(box, ['-p', prompt, '--deny', 'read_file(.env)']);
    expect(r.stdout.trim()).toBe('explained');
    const blocks = firstMessage();
    expect(blocks.map((b) => b.type)).toEqual(['text', 'image']);
    expect(blocks[0].text).toBe(
      [
        prompt,
        'Contents of src/app.ts:\n     1\texport const app = 1;\n     2\tconsole.log(app);',
        'Listing of src/ (2 entries):\napp.ts\nutil.ts',
        `[@shot.png: shot.png: image/png, 64×32 px, ${pngOf(64, 32).length} B; attached]`,
        '[@src/nope.ts was not read: there is no such file]',
        '[@blob.bin was not read: blob.bin looks like a binary file (NUL bytes in the first 8 KiB); use bash (e.g. xxd blob.bin | head) to inspect it]',
        '[@../outside.txt was not read: it is outside the workspace]',
        '[@.env was not read: a deny rule keeps .env from read_file]',
      ].join('\n\n'),
    );
    expect(blocks[1].source).toEqual({
      type: 'base64',
      media_type: 'image/png',
      data: pngOf(64, 32).toString('base64'),
    });
    expect(JSON.stringify(fake.messageRequests[0].body)).not.toContain('secret outside');
  });

  it('caps a long file as read_file does and says where it was cut', async () => {
    const long = Array.from({ length: 2500 }, (_, i) => `r${i + 1}`).join('\n');
    await writeFile(join(box.cwd, 'long.txt'), long);
    fake.enqueue(reply.text('ok'));
    await codey(box, ['-p', 'summarise @long.txt']);
    const text = firstMessage()[0].text ?? '';
    expect(text).toContain(
      '  2000\tr2000\n\nshowing lines 1–2000 of 2,500; call again with offset=2001 to read on',
    );
    expect(text).not.toContain('r2001');
  });
});

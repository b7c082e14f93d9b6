import { afterEach, describe, expect, it } from 'vitest';
import { hiddenWarning } from '../../../src/util/hidden-chars';
import { askAboutCommand } from './ask-bash';
import { eventually } from '../helpers';

// The warning under a command with characters that would not show counts each of them once, though
// the command's summary ("Run: …") repeats them.

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function askAbout(command: string) {
  const { t } = await askAboutCommand(100, 30, command);
  stop = t.stop;
  return t;
}

describe('the count of characters that would not show', () => {
  it('is 1 for a command with one carriage return', async () => {
    const t = await askAbout('rm -rf ~/x\r echo harmless');
    await eventually(() => expect(t.screen()).toContain(hiddenWarning(1)));
    expect(t.screen()).toContain('rm -rf ~/x\\u000d echo harmless');
  });

  it('is 2 for a command with two bidi controls, in the prompt and in the running call', async () => {
    const t = await askAbout('echo safe \u202e; rm -rf ~ \u202c #');
    await eventually(() => expect(t.screen()).toContain(hiddenWarning(2)));
    await new Promise((r) => setTimeout(r, 600));
    await t.type('1');
    t.c.emit({ type: 'approval_decision', id: 'b1', decision: { kind: 'allow_once' }, source: 'person' });
    await eventually(() => expect(t.screen()).toContain('Bash(echo safe \\u202e; rm -rf ~ \\u202c #)'));
    expect(t.screen()).toContain(hiddenWarning(2));
    expect(t.screen()).not.toContain(hiddenWarning(4));
  });

  it("adds the summary's own characters that the detail does not hold", async () => {
    const { showCallWords } = await import('../../../src/util/hidden-chars');
    expect(showCallWords('Fetch \u200bx', 'x').hidden).toBe(1);
    expect(showCallWords('Run: a\u200b\u200b …', 'a\u200b\nb').hidden).toBe(2);
  });
});

import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, Decision } from '../../src/approval/types';
import { block, type ScriptedReply } from '../../src/llm/scripted';
import { COMPACTED_LINES, INIT_PROMPT } from '../../src/tui/commands/builtin-commands';
import type { TranscriptAction } from '../../src/tui/transcript/transcript-state';
import { initialTranscript, reduceTranscript } from '../../src/tui/transcript/transcript-state';
import { TranscriptItem } from '../../src/tui/transcript/TranscriptItem';
import { frame } from '../tui/helpers';
import { openSession as open } from './stored-session';

// A resumed session is drawn as the live one was: the same frames, item by item.

afterEach(() => cleanup());

/** What a person sees of the finished transcript `actions` draw: each item's frame at 100 columns. */
function frames(actions: readonly TranscriptAction[]): string[] {
  return reduceTranscript(initialTranscript(), [...actions, { type: 'settle' }], 0).done.map((item) => {
    const shown = frame(render(<TranscriptItem item={item} columns={100} />).lastFrame);
    cleanup();
    return shown;
  });
}

/**
 * Runs `typed` lines in a new session as the app does (each drawn as typed, then sent: `send` maps a
 * command line to the prompt it sends), then resumes it: the frames of both transcripts.
 */
async function liveAndResumed(
  replies: ScriptedReply[],
  turns: { typed: string; sent?: string }[],
  answer: (request: ApprovalRequest) => Decision = () => ({ kind: 'allow_once' }),
) {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'codey-rd-')));
  await mkdir(join(root, 'work'));
  await writeFile(join(root, 'work', 'plan.md'), '# The plan\n\nship it\n');
  const first = await open(root, false, replies);
  first.controller.setApprovalHandler(async (request) => answer(request));
  const live: TranscriptAction[] = [];
  first.controller.subscribe((a) => live.push(a));
  const signal = new AbortController().signal;
  for (const t of turns) {
    live.push({ type: 'user_prompt', text: t.typed });
    if (t.typed.startsWith('/compact')) {
      // As the app runs the command: the compaction, then what the command answers.
      await first.controller.compact(t.typed.slice('/compact'.length).trim() || undefined, signal);
      live.push({ type: 'info', lines: [...COMPACTED_LINES] });
      continue;
    }
    await first.controller.run(t.sent ?? t.typed, signal, t.sent ? t.typed : undefined);
    live.push({ type: 'settle' });
  }
  first.session.recorder.close();
  const again = await open(root, true, []);
  const drawn: TranscriptAction[] = [];
  again.controller.subscribe((a) => drawn.push(a));
  again.session.recorder.close();
  return { live: frames(live), resumed: frames(drawn) };
}

describe('a resumed transcript', () => {
  it('shows tool calls as they were: a command’s output, a file’s diff, a rejection', async () => {
    const long = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join('\n');
    const { live, resumed } = await liveAndResumed(
      [
        {
          content: [
            block.text('Looking.'),
            block.toolUse('t1', 'bash', { command: 'printf "one\\ntwo\\nthree\\n"' }),
            block.toolUse('t2', 'write_file', { path: 'notes.txt', content: 'alpha\nbeta\n' }),
            block.toolUse('t3', 'bash', { command: 'rm -rf build' }),
            block.toolUse('t4', 'write_file', { path: 'long.txt', content: `${long}\n` }),
          ],
        },
        {
          content: [
            block.toolUse('t5', 'edit_file', {
              path: 'long.txt',
              old_string: 'line 150\n',
              new_string: 'line 150, changed\n',
            }),
          ],
        },
        { content: [block.text('Done.')] },
      ],
      [{ typed: 'tidy up' }],
      (request) =>
        request.detail.includes('rm -rf')
          ? { kind: 'deny_with_message', message: 'keep the build' }
          : { kind: 'allow_once' },
    );
    expect(live.join('\n')).toContain('three');
    expect(live.join('\n')).toContain('+ alpha');
    expect(live.join('\n')).toContain('Rejected: keep the build');
    expect(live.join('\n')).toContain('150 + line 150, changed');
    expect(resumed).toEqual(live);
  });

  it('shows /init and an @path mention as the person typed them', async () => {
    const { live, resumed } = await liveAndResumed(
      [{ content: [block.text('Written.')] }, { content: [block.text('Read it.')] }],
      [{ typed: '/init', sent: INIT_PROMPT }, { typed: 'what does @plan.md say?' }],
    );
    expect(live).toContain('\n> /init');
    expect(live).toContain('\n> what does @plan.md say?');
    expect(resumed).toEqual(live);
  });

  it('shows a compaction as its line, with the messages before it as they were', async () => {
    const summary = '<summary>The person asked two things; both were answered.</summary>';
    const { live, resumed } = await liveAndResumed(
      [
        { content: [block.text('The first answer.')] },
        { content: [block.text('The second answer.')] },
        { content: [block.text(summary)] },
        { content: [block.text('The third answer.')] },
      ],
      [{ typed: 'first question' }, { typed: 'second question' }, { typed: '/compact' }, { typed: 'third' }],
    );
    expect(live.join('\n')).toContain('Compacted the conversation (/compact)');
    expect(live).toContain('\n> first question');
    expect(resumed).toEqual(live);
  });

  it('shows /compact with the focus it was given', async () => {
    const { live, resumed } = await liveAndResumed(
      [
        { content: [block.text('The answer.')] },
        { content: [block.text('<summary>Asked; answered.</summary>')] },
      ],
      [{ typed: 'a question' }, { typed: '/compact the parser work' }],
    );
    expect(live).toContain('\n> /compact the parser work');
    expect(resumed).toEqual(live);
  });
});

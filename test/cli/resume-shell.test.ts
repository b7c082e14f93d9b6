import { mkdir, mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storeOf } from '../../src/cli/resume';
import { block } from '../../src/llm/scripted';
import { listSessions } from '../../src/session/store';
import type { TranscriptAction } from '../../src/tui/transcript/transcript-state';
import { initialTranscript, reduceTranscript } from '../../src/tui/transcript/transcript-state';
import { openSession } from './stored-session';

const open = (root: string, resume: boolean) =>
  openSession(root, resume, [{ content: [block.text('Seen.')] }]);

describe('a resumed session with !cmd runs', () => {
  it('draws the commands as commands and the words as the prompt, from the store’s prompt lines', async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'codey-rs-')));
    await mkdir(join(root, 'work'));
    const first = await open(root, false);
    const signal = new AbortController().signal;
    await first.controller.shell('echo from the person', signal);
    await first.controller.run('now look at that', signal);
    first.session.recorder.close();
    // The model read the note; the listing's title is what the person typed.
    expect(JSON.stringify(first.session.conversation.messages[0])).toContain(
      '[The person ran this shell command',
    );
    expect(listSessions(storeOf(first.env)).map((s) => s.title)).toEqual(['now look at that']);

    const again = await open(root, true);
    const drawn: TranscriptAction[] = [];
    again.controller.subscribe((a) => drawn.push(a));
    const done = reduceTranscript(initialTranscript(), drawn, 0).done;
    expect(
      done.map((i) =>
        i.kind === 'info' ? `info:${i.title}:${i.lines.join('|')}` : `${i.kind}:${'text' in i ? i.text : ''}`,
      ),
    ).toEqual(['info:$ echo from the person:from the person', 'user:now look at that', 'assistant:Seen.']);
    again.session.recorder.close();
  });
});

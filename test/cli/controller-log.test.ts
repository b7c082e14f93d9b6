import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Conversation } from '../../src/agent/conversation';
import { EventHub } from '../../src/agent/events';
import { SessionController } from '../../src/cli/controller';
import type { CodeySession } from '../../src/cli/session';
import type { Settings } from '../../src/config/resolve';
import type { TranscriptAction } from '../../src/tui/transcript/transcript-state';
import { redactor } from '../../src/util/redact';
import { SessionLog } from '../../src/session/log';

describe.skipIf(!existsSync('/dev/full'))('SessionController with a session log on a full disk', () => {
  it('reaches the interactive app as one warning notice', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'codey-log-'));
    const log = new SessionLog(dir, 'full', redactor([]), { open: () => createWriteStream('/dev/full') });
    const session = {
      deps: { model: 'm' },
      events: new EventHub(),
      log,
      commands: [],
      conversation: new Conversation(),
      recorder: { onFailure: () => () => {} },
    } as unknown as CodeySession;
    const settings = { theme: 'dark' } as Settings;
    const controller = new SessionController(session, settings, join(dir, 'history.jsonl'), []);
    const events: TranscriptAction[] = [];
    const noticed = new Promise<void>((resolve) =>
      controller.subscribe((e) => {
        events.push(e);
        resolve();
      }),
    );
    log.write({ type: 'session_start', session_id: 'full' });
    await noticed;
    log.write({ type: 'text', text: 'more' });
    await log.close();
    expect(events).toEqual([{ type: 'notice', level: 'warn', message: expect.stringContaining('ENOSPC') }]);
  });
});

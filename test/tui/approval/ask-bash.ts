import { expect } from 'vitest';
import { describeCommand } from '../../../src/tools/bash';
import { startInVt } from '../vt-app';
import { eventually } from '../helpers';

/**
 * The app in a `columns`×`rows` emulator asking about `command` as the agent does (the call starts,
 * then the prompt asks), once the prompt is drawn: the app, its screen and the prompt's part of it.
 */
export async function askAboutCommand(columns: number, rows: number, command: string) {
  const t = await startInVt(columns, rows, ['$ codey']);
  await t.type('do it', '\r');
  await eventually(() => expect(t.c.runs).toHaveLength(1));
  const words = describeCommand(command);
  t.c.emit({
    type: 'tool_start',
    id: 'b1',
    name: 'bash',
    displayName: 'Bash',
    input: { command },
    summary: words.summary,
    detail: command,
  });
  void t.c.ask({ tool: 'bash', kind: 'execute', ...words });
  await t.shows('Allow this?');
  const screen = t.screen();
  return { t, screen, prompt: screen.slice(screen.lastIndexOf('╭')) };
}

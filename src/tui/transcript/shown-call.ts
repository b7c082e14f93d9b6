/**
 * What the transcript shows of a tool call's words: the summary, the detail and a shell display's
 * command with every character that draws nothing or reorders text written as its `\u` escape
 * (`showHidden`), as the approval prompt shows them, so the prompt, the running call's header and
 * the finished call read the same. Applied before `forTerminal`, which then has nothing to strip.
 */
import type { TranscriptAction } from './transcript-types';
import { showCallWords, showHidden } from '../../util/hidden-chars';

/**
 * Characters of the detail's first line in a call's header: a long command reads in full, wrapped,
 * as the approval prompt showed it.
 */
export const HEADER_DETAIL_CHARS = 1000;

/**
 * `action` as the transcript shows it, then, for a call whose words held hidden characters, the
 * action that tells its header how many. Pure.
 */
export function shownCall(action: TranscriptAction): TranscriptAction[] {
  if (action.type === 'tool_start') {
    const { summary, detail, hidden } = showCallWords(action.summary, action.detail);
    if (hidden === 0) return [action];
    const shown = { ...action, summary, detail };
    return action.agentId ? [shown] : [shown, { type: 'hidden_chars', id: action.id, hidden }];
  }
  if (action.type === 'tool_end' && action.display?.kind === 'shell') {
    const command = showHidden(action.display.command);
    if (command.hidden > 0) return [{ ...action, display: { ...action.display, command: command.text } }];
  }
  return [action];
}

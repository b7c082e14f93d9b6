/**
 * What the transcript shows of a tool call's words: the name, the summary, the detail, and the
 * finished call's command, path, URL, diff and title, with every character that draws nothing or
 * reorders text written as its `\u` escape (`showHidden`), as the approval prompt shows them, so
 * the prompt, the running call's header and the finished call read the same. Applied before
 * `forTerminal`, which then has nothing to strip.
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
    const displayName = escaped(action.displayName);
    if (hidden === 0 && displayName === action.displayName) return [action];
    const shown = { ...action, displayName, summary, detail };
    return action.agentId || hidden === 0
      ? [shown]
      : [shown, { type: 'hidden_chars', id: action.id, hidden }];
  }
  if (action.type === 'tool_end') return [shownEnd(action)];
  return [action];
}

const escaped = (text: string) => showHidden(text).text;

type ToolEnd = Extract<TranscriptAction, { type: 'tool_end' }>;

/**
 * A finished call as the transcript and the viewer show it: the command, path or URL its display
 * names, its diff's sides and its title escaped as its header is, and the path or URL written the
 * same way where the output repeats it ("Created note\u001b]0;…txt"), so no name is shown one way
 * in the prompt and another (stripped) once the call ran.
 */
function shownEnd(action: ToolEnd): ToolEnd {
  const d = action.display;
  let display = d;
  /** The path or URL the call names, which its output may repeat. */
  let named = '';
  if (d?.kind === 'shell') display = { ...d, command: escaped(d.command) };
  else if (d?.kind === 'fetch') {
    named = d.url;
    display = { ...d, url: escaped(d.url) };
  } else if (d?.kind === 'diff') {
    named = d.path;
    const before = d.before === null ? null : escaped(d.before);
    display = { ...d, path: escaped(d.path), before, after: escaped(d.after) };
  }
  const name = escaped(named);
  const output = name === named ? action.output : action.output.split(named).join(name);
  const title = action.title === undefined ? {} : { title: escaped(action.title) };
  const displayName = escaped(action.displayName);
  return { ...action, displayName, output, ...(display ? { display } : {}), ...title };
}

/**
 * `/resume ID` inside a running session: the stored session is found (another workspace's only when
 * asked), read, repaired and switched to, and its transcript is drawn again from the store.
 */
import type { ResumeReport } from '../tui/commands/session-port';
import type { TranscriptAction } from '../tui/transcript/transcript-state';
import { transcriptOf } from './replay';
import { findFor, readForResume } from './resume';
import type { CodeySession } from './session';

/**
 * Switches `s` to stored session `id`. `env` says where the store is (`XDG_STATE_HOME`).
 * @returns the report for the person, and with `ok` the transcript actions that draw the resumed
 *   session (a "Resumed" line first); never throws (a store that cannot be read is a report).
 */
export function resumeInSession(
  s: CodeySession,
  id: string,
  env: Record<string, string | undefined>,
  opts: { anyWorkspace?: boolean },
): { report: ResumeReport; drawn: TranscriptAction[] } {
  const refused = (report: ResumeReport) => ({ report, drawn: [] });
  if (id === s.id) return refused({ ok: false, message: `session ${id} is the one running` });
  const found = findFor({ kind: 'id', id }, s.workspace, env);
  if (!found.ok && !(found.otherWorkspace && opts.anyWorkspace))
    return refused({
      ok: false,
      message: found.message,
      ...(found.otherWorkspace ? { otherWorkspace: found.otherWorkspace.workspace } : {}),
    });
  const summary = found.ok ? found.summary : found.otherWorkspace!;
  let resumption;
  try {
    resumption = readForResume(summary, env);
  } catch (err) {
    return refused({ ok: false, message: `cannot resume: ${(err as Error).message}` });
  }
  s.switchStore(resumption);
  const [head, ...repairs] = resumption.notices.map((n) => n.replace(/^codey: /, ''));
  return {
    report: {
      ok: true,
      lines: repairs.length ? repairs : ['Go on where it left off: type your next message.'],
    },
    drawn: [
      { type: 'info', title: 'Resumed', lines: [head] },
      ...transcriptOf(s.conversation.messages, s.agent.registry, s.shown),
    ],
  };
}

/**
 * What the approval prompt shows of a request: every string safe for the terminal, and every
 * character that draws nothing or reorders text in the summary, the detail and the change written as
 * its `\u` escape (`showHidden`), so the prompt reads as what will run. The transcript's header of
 * the call escapes the same way, so the two show the same text.
 */
import type { ApprovalRequest } from '../../approval/types';
import { showCallWords, showHidden } from '../../util/hidden-chars';
import { deepForTerminal } from '../../util/terminal-text';

/** A request as the prompt shows it, and how many characters were escaped in it. */
export interface ShownRequest {
  request: ApprovalRequest;
  /** Escaped in the summary and the detail (each once), plus those the change adds to the file. */
  hidden: number;
}

/** `request` as the prompt shows it (see the module's comment). Pure. */
export function shownRequest(request: ApprovalRequest): ShownRequest {
  const words = showCallWords(request.summary, request.detail);
  let hidden = words.hidden;
  let preview = request.preview;
  if (preview && typeof preview.after === 'string') {
    const after = showHidden(preview.after);
    const before = typeof preview.before === 'string' ? showHidden(preview.before) : undefined;
    hidden += Math.max(0, after.hidden - (before?.hidden ?? 0));
    preview = { ...preview, after: after.text, ...(before ? { before: before.text } : {}) };
  }
  return {
    request: deepForTerminal({ ...request, summary: words.summary, detail: words.detail, preview }),
    hidden,
  };
}

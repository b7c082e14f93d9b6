/**
 * The words of a compaction: the request for a handoff summary, sent as the last user message after
 * the conversation as it stands (so the request reads the conversation from the prompt cache), and
 * the frame the summary gets at the head of the compacted conversation.
 */

/** Most characters of a `/compact` focus kept in the request (a focus is a line, not a document). */
const MAX_FOCUS_CHARS = 2_000;

/**
 * The request for the handoff summary. `focus` is what the person asked to keep in view
 * (`/compact FOCUS`); it narrows the emphasis, never the required sections.
 */
export function summaryRequest(focus?: string): string {
  const lines = [
    'The conversation above is about to be cut to fit your context window. Write a handoff summary of it: it replaces everything above, and you will continue the task from it alone, together with the newest messages, which are kept as they are.',
    '',
    'Do not call any tool and do not continue the task in this answer: reply with the summary only, as plain text under these headings.',
    '',
    "1. Task: what the person wants, in their own words where they were short (quote each of the person's requests verbatim when under about 200 words; otherwise paraphrase closely). Include constraints and preferences they stated.",
    '2. Decisions: what was decided and why, including approaches tried and rejected.',
    '3. Files: every file read, created or changed, with its path, what it holds that matters, and what was changed in it (function names, line ranges, key snippets when short).',
    '4. Commands: the commands run (tests, builds, scripts) and their outcome: passed, failed and how, what the output showed.',
    '5. Errors: the errors met and whether each was fixed, and how.',
    '6. In progress: exactly where the work stands now, including any tool call whose result has not been seen yet.',
    '7. Next: the remaining steps, in order, as concrete as you can make them.',
    '',
    'Be specific and complete rather than short: paths, names, numbers and exact error messages matter more than prose. Do not restart the task or restate it as new; the summary is for carrying on where the work stopped.',
  ];
  const f = focus?.trim();
  if (f) {
    const clipped = f.length > MAX_FOCUS_CHARS ? `${f.slice(0, MAX_FOCUS_CHARS)}…` : f;
    lines.push('', `The person asked to keep this in focus; give it the most detail: ${clipped}`);
  }
  return lines.join('\n');
}

/**
 * The first text of a compacted conversation: the summary, framed so that the model carries on
 * without the person repeating the task.
 */
export function summaryHandoff(summary: string): string {
  return [
    'This conversation was compacted to fit the context window. Everything before this point is replaced by the summary below, written by you.',
    '',
    '<summary>',
    summary.trim(),
    '</summary>',
    '',
    'Carry on with the task from where it stopped, without asking the person to repeat anything the summary covers. Any messages after this one are the newest part of the conversation, kept as they were.',
  ].join('\n');
}

/** The first message of a summary request whose oldest messages had to be left out. */
export const LEFT_OUT =
  '(The start of this conversation was left out here because it did not fit the context window; summarise what follows.)';

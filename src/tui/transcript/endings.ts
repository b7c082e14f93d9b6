/**
 * The words a person reads about how a request retries, how a turn ended and a compaction: the
 * transcript's, and those `-p` prints on stderr (src/cli/print.ts takes them from here).
 */
import type { CompactionTrigger, RefusalDetails, TurnEndReason } from '../../agent/events';
import { withCommas, oneLine } from '../../util/text';

const TRIGGERS: Record<CompactionTrigger, string> = {
  auto: 'it passed compact_at of the window',
  overflow: 'the API refused it as too long',
  manual: '/compact',
};

/**
 * The one line a person reads about a compaction event (the transcript, `-p` on stderr):
 * "Compacted the conversation (/compact): 170,000 → about 12,400 tokens of the 200,000-token window."
 */
export function compactionLine(e: {
  trigger: CompactionTrigger;
  tokensBefore: number;
  tokensAfter: number;
  window: number;
}): string {
  const n = (x: number) => withCommas(x);
  return `Compacted the conversation (${TRIGGERS[e.trigger]}): ${n(e.tokensBefore)} → about ${n(e.tokensAfter)} tokens of the ${n(e.window)}-token window.`;
}

/**
 * "retrying in 2 s (attempt 2 of 4)" for retry number `retry` (from 1) after `delayMs` ms: the
 * attempt counts the first try, and "of N" appears when the most tries are known. The words `-p`
 * prints after the reason (`codey: rate limited (429); retrying in …`) and the transcript shows.
 */
export function retryingIn(delayMs: number, retry: number, attempts?: number): string {
  const s = delayMs / 1000;
  const secs = Number.isInteger(s) ? String(s) : s.toFixed(1);
  const of = attempts === undefined ? '' : ` of ${attempts}`;
  return `retrying in ${secs} s (attempt ${retry + 1}${of})`;
}

/** What a person reads when a turn ended normally with no text in its answer (`-p`, the transcript). */
export const NO_ANSWER = 'the model ended its turn without any text';

/**
 * "the model declined to answer (category cyber): <explanation>" for a refusal and what the API said
 * of it (`stop_details`; either part may be missing). The explanation is put on one line of at most
 * `max` characters.
 */
function refusalWords(
  d: { category: string | null; explanation: string | null } | undefined,
  max = 500,
): string {
  const category = d?.category ? ` (category ${d.category})` : '';
  const explanation = d?.explanation ? `: ${oneLine(d.explanation, max)}` : '';
  return `the model declined to answer${category}${explanation}`;
}

/** "Retrying in 2 s (attempt 2 of 4).": {@link retryingIn} as the transcript's sentence. */
export function retryingInSentence(delayMs: number, retry: number, attempts?: number): string {
  const words = retryingIn(delayMs, retry, attempts);
  return `${words[0].toUpperCase()}${words.slice(1)}.`;
}

/** How a turn ended, as the transcript's last line for it says; `no_answer`: it ended without text. */
export type TurnEnding = Exclude<TurnEndReason, 'end_turn' | 'error'> | 'no_answer';

const ENDINGS: Record<Exclude<TurnEnding, 'refusal'>, string> = {
  interrupted: 'Interrupted. Tell codey what to do instead.',
  max_tokens: 'The reply hit the output token limit and was cut short.',
  max_turns: 'Stopped: the turn reached its limit of model requests.',
  hook_stop: 'Stopped by a hook (its reason is above).',
  no_answer: `No answer: ${NO_ANSWER}. Ask again, or say what you expected.`,
};

/**
 * The line for the end of a turn: the words `-p` prints for a refusal (with what the API said of
 * it) and for an answer without text, and a short line for the other endings.
 */
export function turnEndText(reason: TurnEnding, refusal?: RefusalDetails): string {
  if (reason !== 'refusal') return ENDINGS[reason];
  const words = refusalWords(refusal);
  const sentence = `${words[0].toUpperCase()}${words.slice(1)}`;
  return refusal?.explanation
    ? /[.!?]$/.test(sentence)
      ? sentence
      : `${sentence}.`
    : `${sentence}. Rephrase the request, or ask for something else.`;
}

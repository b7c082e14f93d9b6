/** The words the transcript says about how a request retries and how a turn ended. */
import type { RefusalDetails, TurnEndReason } from '../../agent/events';
import { NO_ANSWER, refusalWords, retryingIn } from '../../util/text';

/**
 * "Retrying in 2 s (attempt 2 of 4)." (see `retryingIn` in src/util/text, the words `-p` prints).
 */
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

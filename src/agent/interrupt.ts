/**
 * How long (ms) a running tool has to stop after an interrupt: one still running then is abandoned
 * (its tool_result says so), so a tool that ignores its signal cannot keep the turn, or codey, alive.
 */
export const ABANDON_GRACE_MS = 3_000;

/**
 * What the model reads in a tool_result when the person interrupts the turn (Esc, Ctrl-C, an aborted
 * signal): one wording, naming "the person", and one text per call. Each says whether the call ran,
 * since that decides what the model must check before it goes on.
 */
export const INTERRUPTED = {
  /** The call never started. */
  beforeRun: 'Interrupted by the person before this call ran; it was not run.',
  /** The call waited for approval and never started. */
  whileAsking: 'Interrupted by the person while asking for approval; it was not run.',
  /** The call had started and was stopped; what it printed so far follows on the next lines. */
  whileRunning: 'Interrupted by the person while the tool ran; it was stopped.',
  /** The call had started and did not stop within the grace after the interrupt (see {@link ABANDON_GRACE_MS}). */
  abandoned:
    'Interrupted by the person while the tool ran; it did not stop within a few seconds and was abandoned: ' +
    'it may have done part of its work, so check what it was changing before you go on.',
  /**
   * Follows an answer the person stopped mid-stream (in the next user message): the text above is
   * what had arrived, and the model should not assume the rest was said.
   */
  answer: '[The person interrupted your answer above while it was streaming; it ends where they stopped it.]',
} as const;

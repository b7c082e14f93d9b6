/**
 * One question to the person at a time, per session: the parent's and every subagent's approval
 * requests share one {@link QuestionQueue} (it rides in the agent's spec), and each waits there for
 * the ones before it to be answered. A request is decided by the rules again when its turn comes, so
 * an "always" answer given to an earlier request lets a waiting one through (or a new deny rule
 * refuses it) without asking again.
 */
import type { ApprovalRequest, Decision, Verdict } from '../approval/types';

/** What settled a request that waited its turn: a rule made since, or the person. */
export type GateOutcome = { verdict: Exclude<Verdict, { action: 'ask' }> } | { decision: Decision };

/** The session's queue of questions to the person; one per session, shared by every agent in it. */
export class QuestionQueue {
  #tail: Promise<void> = Promise.resolve();

  /**
   * Wait for the questions before this one, decide `req` by `evaluate` again, and ask with `ask`
   * only if the rules still have no answer; the next request waits until `ask` settles.
   * @throws the signal's reason when it aborts while waiting, or what `ask` throws.
   */
  async ask(
    evaluate: (req: ApprovalRequest) => Verdict,
    req: ApprovalRequest,
    signal: AbortSignal,
    ask: () => Promise<Decision>,
  ): Promise<GateOutcome> {
    const before = this.#tail;
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    this.#tail = before.then(() => mine);
    try {
      await untilAborted(before, signal);
      const verdict = evaluate(req);
      if (verdict.action !== 'ask') return { verdict };
      return { decision: await ask() };
    } finally {
      release();
    }
  }
}

/** `p`, or a rejection with the signal's reason as soon as `signal` aborts. */
function untilAborted(p: Promise<void>, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void p.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

import { useCallback, useEffect, useState } from 'react';
import type { ApprovalRequest, Decision } from '../../approval/types';
import { forTerminal } from '../../util/terminal-text';
import { shownRequest } from './shown-request';
import type { ApprovalCallback } from '../../agent/events';
import { displayName } from '../../util/text';

interface Pending {
  id: number;
  request: ApprovalRequest;
  /** Characters escaped in what the prompt shows (see `shownRequest`). */
  hidden: number;
  displayName: string;
  resolve: (decision: Decision) => void;
}

/** The part of the app's Controller approvals use: the handler's place, and the tools' shown names. */
export interface ApprovalHost {
  setApprovalHandler(handler: ApprovalCallback): void;
  tools(): readonly { name: string; displayName: string }[];
}

/**
 * Registers the app as `controller`'s approval handler. Requests wait in order; the first is
 * `pending` until `answer` is called, or until its turn is interrupted (then it counts as a deny).
 * What the prompt shows (summary, detail, preview, tool name) is passed through `shownRequest` and
 * `forTerminal`, so a command cannot hide what it does behind a carriage return, an escape sequence,
 * a zero-width space or a bidi override.
 */
export function useApproval(controller: ApprovalHost): {
  pending?: { id: number; request: ApprovalRequest; hidden: number; displayName: string };
  answer: (decision: Decision) => void;
} {
  const [queue, setQueue] = useState<Pending[]>([]);

  useEffect(() => {
    let next = 0;
    controller.setApprovalHandler(
      (request, signal) =>
        new Promise<Decision>((resolve) => {
          const id = next++;
          const tool = controller.tools().find((t) => t.name === request.tool);
          const remove = () => setQueue((q) => q.filter((p) => p.id !== id));
          const onAbort = () => {
            remove();
            resolve({ kind: 'deny' });
          };
          if (signal.aborted) return onAbort();
          signal.addEventListener('abort', onAbort, { once: true });
          const settle = (decision: Decision) => {
            signal.removeEventListener('abort', onAbort);
            remove();
            resolve(decision);
          };
          setQueue((q) => [
            ...q,
            {
              id,
              ...shownRequest(request),
              displayName: forTerminal(tool?.displayName ?? displayName(request.tool)),
              resolve: settle,
            },
          ]);
        }),
    );
  }, [controller]);

  const first = queue[0];
  const answer = useCallback((decision: Decision) => first?.resolve(decision), [first]);
  return { pending: first, answer };
}

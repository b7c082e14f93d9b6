import { useCallback, useEffect, useReducer, useRef } from 'react';
import { deepForTerminal, forTerminal } from '../../util/terminal-text';
import { shownCall } from './shown-call';
import {
  initialTranscript,
  reduceTranscript,
  type TranscriptAction,
  type TranscriptState,
} from './transcript-state';

/**
 * Streamed deltas are applied at most once per this many ms, so a fast stream costs a bounded number
 * of renders; any other event flushes the queue at once.
 */
const FRAME_MS = 50;

interface Batch {
  actions: TranscriptAction[];
  now: number;
}

/** The part of the app's Controller the transcript reads: its start-up notices and its events. */
export interface TranscriptSource {
  readonly notices: readonly string[];
  subscribe(listener: (event: TranscriptAction) => void): () => void;
}

function reducer(state: TranscriptState, batch: Batch): TranscriptState {
  return reduceTranscript(state, batch.actions, batch.now);
}

function isDelta(a: TranscriptAction): boolean {
  return a.type === 'text_delta' || a.type === 'thinking_delta' || a.type === 'tool_progress';
}

/**
 * The transcript of `controller`'s events plus the app's own actions, in arrival order. Returns the
 * state and a stable `dispatch` for local actions. Every string arriving here passes through
 * `forTerminal` (src/util/terminal-text), a call's words `shownCall` first: what the model, a tool or a file says cannot drive the
 * terminal, and the colours the components add later are codey's own.
 */
export function useTranscript(controller: TranscriptSource): {
  state: TranscriptState;
  dispatch: (action: TranscriptAction) => void;
} {
  const [state, apply] = useReducer(reducer, controller.notices.map(forTerminal), initialTranscript);
  const queue = useRef<TranscriptAction[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const flush = useCallback(() => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
    if (queue.current.length === 0) return;
    const actions = queue.current;
    queue.current = [];
    apply({ actions, now: Date.now() });
  }, []);

  const dispatch = useCallback(
    (action: TranscriptAction) => {
      for (const shown of shownCall(action)) queue.current.push(deepForTerminal(shown));
      if (!isDelta(action)) flush();
      else if (timer.current === undefined) timer.current = setTimeout(flush, FRAME_MS);
    },
    [flush],
  );

  useEffect(() => {
    const unsubscribe = controller.subscribe(dispatch);
    return () => {
      unsubscribe();
      if (timer.current !== undefined) clearTimeout(timer.current);
    };
  }, [controller, dispatch]);

  return { state, dispatch };
}

/**
 * What the working line shows: from a prompt's `turn_start` (or a `!cmd`'s `shell_start`) to its
 * `settle`, whatever happens in between (a stream that pauses, a tool that runs, an approval).
 */
import type { TranscriptAction, TranscriptState, Working } from './transcript-types';

/** Characters streamed per token, for the estimate shown until a response's usage arrives. */
const CHARS_PER_TOKEN = 4;

/** The working state after `a`: started, counted or ended. Returns `s` itself when nothing changed. */
export function workingAfter(s: TranscriptState, a: TranscriptAction, now: number): TranscriptState {
  const w = s.working;
  switch (a.type) {
    case 'turn_start':
      if (w) return s;
      return { ...s, working: { since: now, outputBase: s.usage?.output_tokens ?? 0, streamed: 0 } };
    case 'shell_start':
      return { ...s, working: { since: now, outputBase: 0, streamed: 0, command: a.command } };
    case 'settle':
    case 'clear':
      return w ? { ...s, working: undefined } : s;
    case 'text_delta':
    case 'thinking_delta':
      if (!w || ('agentId' in a && a.agentId)) return s;
      return { ...s, working: { ...w, streamed: w.streamed + a.text.length } };
    case 'usage':
      // A response's usage replaces the estimate of what it streamed.
      if (!w || ('agentId' in a && a.agentId) || w.streamed === 0) return s;
      return { ...s, working: { ...w, streamed: 0 } };
    default:
      return s;
  }
}

/** Output tokens of the turn so far: the responses' usage, plus an estimate of the one streaming. */
export function workingTokens(w: Working, usage: TranscriptState['usage']): number {
  return Math.max(0, (usage?.output_tokens ?? 0) - w.outputBase) + Math.ceil(w.streamed / CHARS_PER_TOKEN);
}

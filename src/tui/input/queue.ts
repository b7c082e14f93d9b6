/**
 * Messages the person sends while a turn runs wait in a queue (see use-session.ts). These pure
 * helpers decide what leaves the queue next and how the queue is drawn above the input.
 */
import { oneLine } from '../../util/text';

/** Between queued messages joined into one user message, and in the text returned to the input. */
export const QUEUE_JOIN = '\n\n';

/** Most rows the queue takes above the input, however tall the terminal. */
const MAX_QUEUE_ROWS = 4;

/** Characters of a queued message shown on its row before the terminal's width cuts it further. */
const QUEUED_LINE_CHARS = 200;

/**
 * What leaves the queue next: all the plain messages at its front, joined by {@link QUEUE_JOIN}
 * into one user message (`count` of them), or the one line at its front that is a command
 * (`/name`, `!cmd`, as `isPrompt` says), which runs alone so that what follows it sees its effect.
 * Undefined when the queue is empty.
 */
export function nextFromQueue(
  queue: readonly string[],
  isPrompt: (text: string) => boolean,
): { text: string; count: number } | undefined {
  if (queue.length === 0) return undefined;
  if (!isPrompt(queue[0])) return { text: queue[0], count: 1 };
  let count = 0;
  while (count < queue.length && isPrompt(queue[count])) count++;
  return { text: queue.slice(0, count).join(QUEUE_JOIN), count };
}

/** Rows the queue may take in a terminal `rows` tall: 1 to {@link MAX_QUEUE_ROWS}. */
export function queueRowsFor(rows: number): number {
  return Math.max(1, Math.min(MAX_QUEUE_ROWS, Math.floor((rows - 14) / 2)));
}

/**
 * The rows the queue draws, at most `maxRows` (each a single line; the view cuts it at the
 * terminal's width): `⏳ queued: <message on one line>` per message, in order; a longer queue shows
 * `⏳ +N more queued` and its newest messages (the one ↑ takes back last). With one row and more
 * than one message: `⏳ N messages queued`.
 */
export function queueLines(queue: readonly string[], maxRows: number): string[] {
  if (queue.length === 0) return [];
  const line = (text: string) => `⏳ queued: ${oneLine(text, QUEUED_LINE_CHARS)}`;
  if (queue.length <= maxRows) return queue.map(line);
  if (maxRows <= 1) return [`⏳ ${queue.length} messages queued`];
  const shown = queue.slice(queue.length - (maxRows - 1));
  return [`⏳ +${queue.length - shown.length} more queued`, ...shown.map(line)];
}

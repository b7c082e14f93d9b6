/** Text helpers more than one layer needs. */
import type { CompactionTrigger } from './shapes';

/**
 * The name a person sees for a tool's wire name (STYLE.md rule 19): the parts between `_`, `-` and
 * spaces in PascalCase, `web_fetch` → `WebFetch`, `bash` → `Bash`, `mcp__git__log` → `McpGitLog`.
 */
export function displayName(wireName: string): string {
  return wireName
    .split(/[_\-\s]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

/**
 * `text` on one line: every run of whitespace (line breaks too) becomes one space, the ends are
 * trimmed, and a result longer than `max` characters is cut to `max` with a final `…`.
 */
export function oneLine(text: string, max = 100): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The first line of `text`, cut to `max` characters; a `…` after it says that something was left
 * out (more lines, or the rest of a long line).
 */
export function firstLine(text: string, max = 160): string {
  const nl = text.indexOf('\n');
  let line = nl === -1 ? text : text.slice(0, nl);
  let cut = nl !== -1;
  if (line.length > max) {
    line = line.slice(0, max);
    cut = true;
  }
  return cut ? `${line}…` : line;
}

/** The lines of `text`: `\n` ends a line, a `\r` before it is dropped, a final newline adds no line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

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
  const n = (x: number) => x.toLocaleString('en-US');
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
export function refusalWords(
  d: { category: string | null; explanation: string | null } | undefined,
  max = 500,
): string {
  const category = d?.category ? ` (category ${d.category})` : '';
  const explanation = d?.explanation ? `: ${oneLine(d.explanation, max)}` : '';
  return `the model declined to answer${category}${explanation}`;
}

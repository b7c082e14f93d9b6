/** Text helpers more than one layer needs. */

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
 * A whole number with commas between groups of three digits, `12345` → `12,345`: what
 * `toLocaleString('en-US')` gives, without loading the locale data (tens of ms at its first use).
 */
export function withCommas(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `n` and the word for it: `1 file`, `2 files` (`many` for a plural not made with `s`). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What `/rewind` says of the turns (numbers, shown in order) in which bash ran. */
export function bashRanNote(turns: readonly number[]): string {
  return `bash commands ran in ${turns.length === 1 ? 'turn' : 'turns'} ${turns.join(', ')}; their effects are not undone`;
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

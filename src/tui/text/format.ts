/** Small text helpers for the TUI. Pure; widths are never cached (the terminal may resize). */

/** Braille spinner frames. */
const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The spinner's frame at `now` (ms since the epoch), one frame per `stepMs`. */
export function spinnerFrame(now: number, stepMs = 100): string {
  return SPINNER_FRAMES[Math.floor(now / stepMs) % SPINNER_FRAMES.length];
}

/** 950 → "950", 12_345 → "12.3k", 2_500_000 → "2.5M". */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/** Milliseconds as "0.4s", "12s", "3m 05s". */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `${s.toFixed(1)}s`;
  if (s < 60) return `${Math.floor(s)}s`;
  const m = Math.floor(s / 60);
  return `${m}m ${String(Math.floor(s % 60)).padStart(2, '0')}s`;
}

/** `/home/ann/src/x` → `~/src/x` when `home` is a prefix at a path boundary. */
export function shortenPath(path: string, home: string): string {
  if (!home) return path;
  if (path === home) return '~';
  const h = home.endsWith('/') ? home : `${home}/`;
  return path.startsWith(h) ? `~/${path.slice(h.length)}` : path;
}

/** Dollar amount: "$0.0123" below a dollar, "$4.56" above. */
export function formatDollars(amount: number): string {
  return amount < 1 ? `$${amount.toFixed(4)}` : `$${amount.toFixed(2)}`;
}

/** A slash command with its argument hint: "/model NAME", "/help". */
export function commandLabel(command: { name: string; args?: string }): string {
  return command.args ? `${command.name} ${command.args}` : command.name;
}

/** The last `max` characters of `text` or fewer: a cut starts at the next line, never mid-line. */
export function keepTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const tail = text.slice(-max);
  const nl = tail.indexOf('\n');
  return nl === -1 ? tail : tail.slice(nl + 1);
}

/**
 * What Ink reads from the terminal, with the escape sequences that are no key taken out first. Ink
 * 6 turns each CSI sequence into a key event; one it does not know (a colour code `ESC[31m` in
 * pasted `git diff --color` output) becomes a key with no name, and its input hook throws on it,
 * which ends the app. Keys keep their sequences: arrows, Home/End, F-keys, `~` keys (Delete, PgUp,
 * the bracketed-paste markers `ESC[200~`/`ESC[201~`), Shift+Tab, focus events, kitty `u` keys.
 * Delete is handed over as Shift+Delete ({@link FORWARD_DELETE}).
 */

/** Takes what is no key out of what the terminal sent (focus reports, colour answers). */
export interface InputTaker {
  take(text: string): string;
}

/** A CSI sequence (ESC `[`, parameters, intermediates, a final byte). */
const CSI = /\u001b\[[0-?]*[ -/]*[@-~]/g;
/** Final bytes of the CSI sequences that are keys. */
const KEY_FINALS = new Set([...'ABCDEFGHPQRSZIOu~']);

/** The Delete key as terminals send it. */
const DELETE_KEY = '\u001b[3~';
/**
 * What Delete becomes for Ink: Ink names both DEL (0x7f, which the Backspace key sends) and
 * ESC[3~ "delete", so Delete is handed over as Shift+Delete (ESC[3;2~), which Ink marks with
 * `shift`: the input can then tell Delete from Backspace.
 */
export const FORWARD_DELETE = '\u001b[3;2~';

/** `text` without the CSI sequences that are not keys, and with Delete as {@link FORWARD_DELETE}. */
export function withoutNonKeySequences(text: string): string {
  return text.replace(CSI, (seq) =>
    seq === DELETE_KEY ? FORWARD_DELETE : KEY_FINALS.has(seq.at(-1)!) ? seq : '',
  );
}

/**
 * Filter what `stdin.read()` returns (Ink reads with `read()` on `readable`), in place on the
 * stream; a read that was only such sequences reads on, so Ink never sees an empty chunk. Each of
 * `takers` (the terminal's focus reports, its background colour answers) takes its sequences out
 * first and notes them.
 */
export function keysOnly<T extends NodeJS.ReadStream>(stdin: T, ...takers: InputTaker[]): T {
  const read = stdin.read.bind(stdin);
  stdin.read = ((size?: number) => {
    for (;;) {
      const chunk: unknown = read(size);
      if (chunk === null || chunk === undefined) return chunk;
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
      const kept = withoutNonKeySequences(takers.reduce((t, taker) => taker.take(t), text));
      if (kept !== '') return typeof chunk === 'string' ? kept : Buffer.from(kept);
    }
  }) as T['read'];
  return stdin;
}

/** Anything shaped like an Anthropic key (`sk-ant-…`), known to codey or not. */
const KEY_SHAPE = /sk-ant-[A-Za-z0-9_-]{8,}/g;
/** The end of a text that is, or may grow into, something key-shaped (`s`, `sk-a`, `sk-ant-abc…`). */
const KEY_SHAPE_TAIL = /s(?:k(?:-(?:a(?:n(?:t(?:-[A-Za-z0-9_-]*)?)?)?)?)?)?$/;
/** Most characters a stream holds back for a key-shaped run (a longer run is released as it comes). */
const MAX_HELD_KEY_CHARS = 4096;

/** The secrets long enough to redact (8 characters or more). */
const redactable = (secrets: readonly (string | undefined)[]) =>
  secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8);

/**
 * The one redaction of codey's secrets: a function that replaces every occurrence of each secret
 * (8 characters or more) with `[redacted]`, and, unless `keyShapes` is false, anything shaped like
 * an Anthropic key too. Used for errors, `-p` output, the session log (injected) and tool output
 * (exact secrets only: a file the person works on may hold key-shaped test data).
 */
export function redactor(
  secrets: readonly (string | undefined)[],
  opts: { keyShapes?: boolean } = {},
): (text: string) => string {
  const list = redactable(secrets);
  const keyShapes = opts.keyShapes ?? true;
  return (text) => {
    let out = text;
    for (const s of list) if (out.includes(s)) out = out.split(s).join('[redacted]');
    return keyShapes ? out.replace(KEY_SHAPE, '[redacted]') : out;
  };
}

/** {@link redactingStream}: feed the pieces in order, then call `end` once. */
export interface RedactingStream {
  /** Takes the next piece; returns the redacted text that can be shown now (often `''`). */
  push(piece: string): string;
  /** Returns the held-back tail, redacted. The stream is empty afterwards. */
  end(): string;
}

/**
 * {@link redactor} for text that arrives in pieces (a command's output, a few characters at a
 * time). Each piece is released once no secret can straddle it: the stream holds back only the end
 * that could be the start of a secret (so ordinary text is not delayed), and any key-shaped run at the end (up to 4,096
 * characters), so a redactor further down (the session log's, `-p`'s) also sees such a run whole.
 * The concatenation of everything returned equals the redaction of the whole text.
 */
export function redactingStream(
  secrets: readonly (string | undefined)[],
  opts: { keyShapes?: boolean } = {},
): RedactingStream {
  const list = redactable(secrets);
  const redact = redactor(list, opts);
  /** Length of the longest end of `buf` that is the start of a secret (a secret may go on there). */
  const heldFor = (text: string): number => {
    let held = 0;
    for (const s of list) {
      for (let k = Math.min(s.length - 1, text.length); k > held; k--) {
        if (text.endsWith(s.slice(0, k))) {
          held = k;
          break;
        }
      }
    }
    return held;
  };
  let buf = '';
  return {
    push(piece) {
      buf += piece;
      let cut = buf.length - heldFor(buf);
      const tail = KEY_SHAPE_TAIL.exec(buf);
      if (tail && buf.length - tail.index <= MAX_HELD_KEY_CHARS) cut = Math.min(cut, tail.index);
      if (/[\ud800-\udbff]/.test(buf.charAt(cut - 1))) cut--; // keep a surrogate pair together
      if (cut <= 0) return '';
      // Never cut through a whole secret or key-shaped run that the buffer already holds.
      for (let moved = true; moved;) {
        moved = false;
        for (const s of list) {
          const at = buf.indexOf(s, Math.max(0, cut - s.length + 1));
          if (at !== -1 && at < cut && at + s.length > cut) {
            cut = at + s.length;
            moved = true;
          }
        }
        for (const m of buf.matchAll(KEY_SHAPE)) {
          if (m.index < cut && m.index + m[0].length > cut) {
            cut = m.index + m[0].length;
            moved = true;
          }
        }
      }
      const out = buf.slice(0, cut);
      buf = buf.slice(cut);
      return redact(out);
    },
    end() {
      const out = redact(buf);
      buf = '';
      return out;
    },
  };
}

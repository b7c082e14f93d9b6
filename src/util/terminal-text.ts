/**
 * Text that is safe to show on a terminal. Model text, tool output, file contents, page titles and
 * tool names are data: a control sequence in them could set the window title (OSC 0), write the
 * clipboard (OSC 52), plant a link (OSC 8), clear the screen (CSI 2J) or rewrite what an approval
 * prompt says (CR, backspace, cursor moves). The rule (README, "Safety"): codey's own colours are
 * added after this, when Ink renders; everything else is stripped.
 */

/** Anything {@link forTerminal} would change: C0 but tab and newline, DEL, C1. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const ESC = 0x1b;
const BEL = 0x07;
/** The 8-bit forms: CSI, OSC, string terminator, and the other string introducers (DCS, SOS, PM, APC). */
const C1_CSI = 0x9b;
const C1_OSC = 0x9d;
const C1_ST = 0x9c;
const C1_STRINGS = new Set([0x90, 0x98, 0x9e, 0x9f]);
/** After ESC: `P` DCS, `X` SOS, `^` PM, `_` APC (strings, like OSC `]`). */
const ESC_STRINGS = new Set(['P', 'X', '^', '_', ']']);

const between = (c: number, lo: number, hi: number) => c >= lo && c <= hi;
const isControl = (c: number) => (c < 0x20 && c !== 0x09 && c !== 0x0a) || between(c, 0x7f, 0x9f);

/**
 * End (exclusive) of a control sequence's body starting at `i`, after CSI: parameter bytes
 * 0x30–0x3f, intermediate bytes 0x20–0x2f, one final byte 0x40–0x7e (ECMA-48 5.4). A malformed body
 * ends before the first byte that does not fit, so the text after it stays.
 */
function csiEnd(s: string, i: number): number {
  let j = i;
  while (j < s.length && between(s.charCodeAt(j), 0x30, 0x3f)) j++;
  while (j < s.length && between(s.charCodeAt(j), 0x20, 0x2f)) j++;
  return j < s.length && between(s.charCodeAt(j), 0x40, 0x7e) ? j + 1 : j;
}

/**
 * End (exclusive) of a command string (OSC, DCS, SOS, PM, APC) starting at `i`, after its
 * terminator: ST (`ESC \` or 0x9c) or BEL (xterm's OSC form). Unterminated: -1.
 */
function stringEnd(s: string, i: number): number {
  for (let j = i; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === BEL || c === C1_ST) return j + 1;
    if (c === ESC && s.charAt(j + 1) === '\\') return j + 2;
  }
  return -1;
}

/**
 * `text` without any terminal control: every escape sequence (CSI including SGR colour, OSC, DCS,
 * SOS, PM, APC, and two- and three-byte ESC sequences), their 8-bit C1 forms (0x9b CSI, 0x9d OSC,
 * 0x90 DCS, …), every other C0 and C1 control and DEL. Kept: newline and tab; `\r\n` becomes `\n`,
 * a lone CR and a backspace are dropped. An unterminated string sequence loses only its introducer,
 * so no visible text is lost. Pure; returns `text` itself when there is nothing to strip.
 */
export function forTerminal(text: string): string {
  if (!UNSAFE.test(text)) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === ESC) {
      const next = text.charAt(i + 1);
      if (next === '[') i = csiEnd(text, i + 2);
      else if (ESC_STRINGS.has(next)) {
        const end = stringEnd(text, i + 2);
        i = end === -1 ? i + 2 : end;
      } else if (between(text.charCodeAt(i + 1), 0x20, 0x2f)) {
        // nF: intermediates, then one final byte (`ESC ( B` picks a character set).
        let j = i + 1;
        while (j < text.length && between(text.charCodeAt(j), 0x20, 0x2f)) j++;
        i = j < text.length && between(text.charCodeAt(j), 0x30, 0x7e) ? j + 1 : j;
      } else if (between(text.charCodeAt(i + 1), 0x30, 0x7e))
        i += 2; // `ESC c`, `ESC 7`, `ESC M`…
      else i += 1; // a lone ESC
    } else if (c === C1_CSI) i = csiEnd(text, i + 1);
    else if (c === C1_OSC || C1_STRINGS.has(c)) {
      const end = stringEnd(text, i + 1);
      i = end === -1 ? i + 1 : end;
    } else if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a)
      i += 1; // CRLF: keep the LF
    else if (!isControl(c)) {
      // Copy the run of ordinary characters at once.
      let j = i + 1;
      while (j < text.length && !isControl(text.charCodeAt(j))) j++;
      out += text.slice(i, j);
      i = j;
    } else i += 1;
  }
  return out;
}

/**
 * `value` with {@link forTerminal} applied to every string in it, at any depth (plain objects and
 * arrays, as AgentEvents are). Returns `value` itself when nothing changed.
 */
export function deepForTerminal<T>(value: T): T {
  if (typeof value === 'string') return forTerminal(value) as T;
  if (Array.isArray(value)) {
    const mapped = value.map((v: unknown) => deepForTerminal(v));
    return (mapped.some((v, i) => v !== value[i]) ? mapped : value) as T;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const m = deepForTerminal(v);
      if (m !== v) changed = true;
      out[k] = m;
    }
    return (changed ? out : value) as T;
  }
  return value;
}

/**
 * JSON text with DEL and the C1 controls (U+007F–U+009F) written as `\u` escapes. JSON.stringify
 * escapes C0 already but leaves these raw, and a terminal showing the output (`cat session.jsonl`)
 * may act on 0x9b as CSI. The parsed value is unchanged: those characters can only occur in strings.
 */
export function escapeJsonControls(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

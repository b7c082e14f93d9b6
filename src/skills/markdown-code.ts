/**
 * Where Markdown code is: fenced blocks (a line of three or more backticks or tildes, to the next
 * such line of the same character, or the end) and inline code spans (a run of backticks to the next
 * run of the same length on the line). Text there is an example, never an `@path` import or an
 * `@file` reference.
 */

/** A piece of a Markdown text: `code` is a fence or a code span, `text` everything else. */
export interface MarkdownPiece {
  kind: 'text' | 'code' | 'fence';
  text: string;
}

/** Split `text` into pieces; joining their `text` gives `text` back. */
export function markdownPieces(text: string): MarkdownPiece[] {
  const pieces: MarkdownPiece[] = [];
  const lines = text.split(/(?<=\n)/);
  let plain = '';
  const flush = () => {
    if (plain) pieces.push(...inlinePieces(plain));
    plain = '';
  };
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(lines[i]);
    if (!open) {
      plain += lines[i];
      continue;
    }
    flush();
    const mark = open[1];
    let fence = lines[i];
    let j = i + 1;
    for (; j < lines.length; j++) {
      fence += lines[j];
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(lines[j]);
      if (close && close[1][0] === mark[0] && close[1].length >= mark.length) break;
    }
    pieces.push({ kind: 'fence', text: fence });
    i = j;
  }
  flush();
  return pieces;
}

/** Inline code spans of a text without fences. */
function inlinePieces(text: string): MarkdownPiece[] {
  const out: MarkdownPiece[] = [];
  let at = 0;
  const re = /`+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const ticks = m[0];
    const rest = text.slice(m.index + ticks.length);
    const close = new RegExp(`(?<!\`)${ticks}(?!\`)`).exec(rest);
    // A span does not cross a blank line; an unmatched run is plain text.
    if (!close || /\n\s*\n/.test(rest.slice(0, close.index))) continue;
    const end = m.index + ticks.length + close.index + ticks.length;
    if (m.index > at) out.push({ kind: 'text', text: text.slice(at, m.index) });
    out.push({ kind: 'code', text: text.slice(m.index, end) });
    at = end;
    re.lastIndex = end;
  }
  if (at < text.length) out.push({ kind: 'text', text: text.slice(at) });
  return out;
}

/**
 * The `@path` references of `text` outside code: an `@` at the start of a line or after white space,
 * then the path (up to white space; `\ ` is a space in it), without trailing `.,;:!?)` punctuation.
 * In order, without repeats.
 */
export function atReferences(text: string): string[] {
  const found: string[] = [];
  for (const piece of markdownPieces(text)) {
    if (piece.kind !== 'text') continue;
    for (const m of piece.text.matchAll(/(?:^|(?<=\s))@((?:[^\s\\]|\\ )+)/g)) {
      const ref = m[1].replace(/\\ /g, ' ').replace(/[.,;:!?)\]]+$/, '');
      if (ref && !found.includes(ref)) found.push(ref);
    }
  }
  return found;
}

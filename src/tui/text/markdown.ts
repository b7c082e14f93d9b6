/**
 * A small Markdown reader for terminal output: headings, lists, block quotes, rules, fenced code,
 * GFM tables and inline emphasis, code and links. Not CommonMark: it reads what models write, line
 * by line, and an unclosed fence (text still streaming) runs to the end.
 */
import { expandTabs } from './tabs';
import { fitRow, readTableStart, splitRow, type Align } from './markdown-table';

export interface Span {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  strike?: boolean;
  /** Link target; `text` is the label. */
  link?: string;
}

export type Block =
  | { kind: 'heading'; level: number; spans: Span[] }
  | { kind: 'paragraph'; spans: Span[] }
  | { kind: 'list_item'; depth: number; marker: string; spans: Span[] }
  | { kind: 'quote'; spans: Span[] }
  | { kind: 'code'; lang: string; lines: string[] }
  /** `source`: the table's lines as written (the live area counts their rows). */
  | { kind: 'table'; align: Align[]; header: Span[][]; rows: Span[][][]; source: string[] }
  | { kind: 'rule' }
  | { kind: 'blank' };

const FENCE = /^\s*(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
const LIST = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;

/** True when `line` starts a block other than a paragraph, which ends a table. */
function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || LIST.test(line) || QUOTE.test(line);
}

/**
 * The table whose header is `lines[start]`, and the index after its last row; undefined when no
 * table starts there. Body rows run to a blank line or the start of another block (GFM).
 */
function readTable(lines: string[], start: number): { block: Block; next: number } | undefined {
  const head = readTableStart(lines[start], lines[start + 1]);
  if (!head) return undefined;
  const n = head.align.length;
  let i = start + 2;
  const rows: Span[][][] = [];
  while (i < lines.length && lines[i].trim() !== '' && !startsBlock(lines[i])) {
    rows.push(fitRow(splitRow(lines[i]), n).map((c) => parseInline(c)));
    i++;
  }
  const header = head.cells.map((c) => parseInline(c));
  return {
    block: { kind: 'table', align: head.align, header, rows, source: lines.slice(start, i) },
    next: i,
  };
}

function isClosingFence(line: string, open: string): boolean {
  const t = line.trim();
  return t.length >= open.length && t === open[0].repeat(t.length);
}

/**
 * Splits Markdown text into blocks; consecutive blank lines fold into one. Tabs become spaces to the
 * next 4-column stop (as in the input box), so a raw tab never reaches the terminal, whose own tab
 * stops would move the text and could push a line past the width.
 */
export function parseMarkdown(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n').map((l) => (l.includes('\t') ? expandTabs(l) : l));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      const close = fence[1];
      const code: string[] = [];
      i++;
      while (i < lines.length && !isClosingFence(lines[i], close)) {
        code.push(lines[i]);
        i++;
      }
      blocks.push({ kind: 'code', lang: fence[2].toLowerCase(), lines: code });
      continue;
    }
    if (line.trim() === '') {
      if (blocks.length > 0 && blocks[blocks.length - 1].kind !== 'blank') blocks.push({ kind: 'blank' });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1].length, spans: parseInline(heading[2]) });
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: 'rule' });
      continue;
    }
    const item = LIST.exec(line);
    if (item) {
      const depth = Math.floor(item[1].replace(/\t/g, '  ').length / 2);
      const marker = /\d/.test(item[2]) ? item[2] : '•';
      blocks.push({ kind: 'list_item', depth, marker, spans: parseInline(item[3]) });
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      blocks.push({ kind: 'quote', spans: parseInline(quote[1]) });
      continue;
    }
    const table = readTable(lines, i);
    if (table) {
      blocks.push(table.block);
      i = table.next - 1;
      continue;
    }
    blocks.push({ kind: 'paragraph', spans: parseInline(line) });
  }
  while (blocks.length > 0 && blocks[blocks.length - 1].kind === 'blank') blocks.pop();
  return blocks;
}

type Style = Omit<Span, 'text'>;

const LINK = /^\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/;
const AUTOLINK = /^<(https?:\/\/[^>\s]+)>/;

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && /[\p{L}\p{N}_]/u.test(c);
}

/** Finds the closing `marker` for an emphasis opened at `from`; -1 if none. */
function findClose(text: string, marker: string, from: number): number {
  let j = text.indexOf(marker, from);
  while (j !== -1) {
    const before = text[j - 1];
    const after = text[j + marker.length];
    const okBefore = before !== undefined && before !== ' ';
    // `_` closes only at a word end, so snake_case_names stay plain.
    const okAfter = marker[0] !== '_' || !isWordChar(after);
    if (j > from && okBefore && okAfter) return j;
    j = text.indexOf(marker, j + 1);
  }
  return -1;
}

/** Inline Markdown to styled spans; nested emphasis is flattened into combined styles. */
export function parseInline(text: string, style: Style = {}): Span[] {
  const out: Span[] = [];
  let plain = '';
  const flush = () => {
    if (plain) out.push({ text: plain, ...style });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const rest = text.slice(i);
    if (c === '`') {
      const ticks = /^`+/.exec(rest)![0];
      const end = text.indexOf(ticks, i + ticks.length);
      if (end !== -1) {
        flush();
        out.push({ text: text.slice(i + ticks.length, end).trim() || ' ', ...style, code: true });
        i = end + ticks.length;
        continue;
      }
    }
    if (c === '[') {
      const m = LINK.exec(rest);
      if (m) {
        flush();
        out.push(...parseInline(m[1], { ...style, link: m[2] }));
        i += m[0].length;
        continue;
      }
    }
    if (c === '<') {
      const m = AUTOLINK.exec(rest);
      if (m) {
        flush();
        out.push({ text: m[1], ...style, link: m[1] });
        i += m[0].length;
        continue;
      }
    }
    const pair =
      rest.startsWith('**') || rest.startsWith('__') ? rest.slice(0, 2) : rest.startsWith('~~') ? '~~' : '';
    const single = !pair && (c === '*' || c === '_') ? c : '';
    const marker = pair || single;
    const canOpen =
      marker !== '' &&
      text[i + marker.length] !== undefined &&
      text[i + marker.length] !== ' ' &&
      !(c === '_' && isWordChar(text[i - 1]));
    if (canOpen) {
      const end = findClose(text, marker, i + marker.length);
      if (end !== -1) {
        flush();
        const inner = text.slice(i + marker.length, end);
        const next: Style =
          marker === '~~'
            ? { ...style, strike: true }
            : pair
              ? { ...style, bold: true }
              : { ...style, italic: true };
        out.push(...parseInline(inner, next));
        i = end + marker.length;
        continue;
      }
    }
    plain += c;
    i++;
  }
  flush();
  return out;
}

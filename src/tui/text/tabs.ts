/** Tabs drawn as spaces, as the input box and the transcript draw them. */
import stringWidth from 'string-width';

/** Columns between tab stops when a tab in the input is drawn. */
export const TAB_WIDTH = 4;

/**
 * `text` as the input box draws it: each tab becomes spaces up to the next tab stop
 * ({@link TAB_WIDTH}), counting terminal columns (string-width: a CJK character or an emoji is two)
 * from `startCol` on its first line. The value keeps its tabs (a pasted Makefile reaches the model
 * intact); a raw tab on the terminal would be drawn by the terminal, not the layout, and tear the box.
 */
export function expandTabs(text: string, startCol = 0): string {
  if (!text.includes('\t')) return text;
  let col = startCol;
  let out = '';
  for (const ch of text) {
    if (ch === '\t') {
      const n = TAB_WIDTH - (col % TAB_WIDTH);
      out += ' '.repeat(n);
      col += n;
    } else {
      out += ch;
      col = ch === '\n' ? 0 : col + stringWidth(ch);
    }
  }
  return out;
}

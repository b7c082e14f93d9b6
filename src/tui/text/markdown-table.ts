/**
 * The line-level part of GitHub-flavoured Markdown tables (https://github.github.com/gfm/#tables-extension-):
 * splitting a row into cells and reading the delimiter row. One deliberate difference from GFM: a
 * pipe inside an inline code span stays text (GFM splits there unless it is escaped), because models
 * write `a || b` and `x | y` in code cells without escaping.
 */

/** How a column's cells are aligned, from its delimiter cell (`:---`, `:---:`, `---:`, `---`). */
export type Align = 'left' | 'center' | 'right';

const DELIMITER_CELL = /^:?-+:?$/;
/** `<br>`, `<br/>`, `<br />`: a line break inside a cell, as GitHub renders it. */
const BREAK = /^<br\s*\/?>/i;

/**
 * The cells of one table row, trimmed: a leading and a trailing `|` are dropped, the rest splits at
 * every `|` that is neither escaped (`\|`, kept as `|`) nor inside an inline code span. A `<br>`
 * outside code becomes a newline.
 */
export function splitRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\' && s[i + 1] === '|') {
      cell += '|';
      i += 2;
      continue;
    }
    if (c === '`') {
      const ticks = /^`+/.exec(s.slice(i))![0];
      const end = s.indexOf(ticks, i + ticks.length);
      if (end !== -1) {
        cell += s.slice(i, end + ticks.length).replaceAll('\\|', '|');
        i = end + ticks.length;
        continue;
      }
      cell += ticks;
      i += ticks.length;
      continue;
    }
    const br = c === '<' ? BREAK.exec(s.slice(i, i + 8)) : null;
    if (br) {
      cell += '\n';
      i += br[0].length;
      continue;
    }
    if (c === '|') {
      cells.push(cell.trim());
      cell = '';
      i++;
      continue;
    }
    cell += c;
    i++;
  }
  cells.push(cell.trim());
  return cells;
}

/**
 * The column alignments a delimiter row sets, or undefined when `line` is not one: it must hold a
 * `|` and only cells of hyphens with optional colons at either end.
 */
function readDelimiter(line: string): Align[] | undefined {
  if (!line.includes('|')) return undefined;
  const cells = splitRow(line);
  if (!cells.every((c) => DELIMITER_CELL.test(c))) return undefined;
  return cells.map((c) =>
    c.startsWith(':') && c.endsWith(':') && c.length > 1 ? 'center' : c.endsWith(':') ? 'right' : 'left',
  );
}

/**
 * The header's cells and the column alignments when `header` and `delimiter` open a table: the
 * header holds a `|` and has as many cells as the delimiter row (GFM's rule); else undefined.
 */
export function readTableStart(
  header: string,
  delimiter: string | undefined,
): { cells: string[]; align: Align[] } | undefined {
  if (delimiter === undefined || !header.includes('|')) return undefined;
  const align = readDelimiter(delimiter);
  if (!align) return undefined;
  const cells = splitRow(header);
  return cells.length === align.length ? { cells, align } : undefined;
}

/** A body row fitted to `columns` cells, as GFM does: missing cells are empty, extra ones dropped. */
export function fitRow(cells: string[], columns: number): string[] {
  return Array.from({ length: columns }, (_, i) => cells[i] ?? '');
}

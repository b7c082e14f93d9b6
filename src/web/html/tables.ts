/**
 * Tables for the HTML reducer: each `tr` becomes one markdown row `| a | b |`, the first row that has a
 * `th` is followed by a `| --- |` separator line, and a table inside another table's cell is flattened
 * to spaces so the outer row stays on one line. A code table (highlighted code beside a line-number
 * gutter) is one code block instead: no pipes, a row ends a line, text between cells is dropped.
 */
import type { Layout } from './layout';

interface Table {
  /** Cells written in the current row. */
  cells: number;
  rows: number;
  /** The current row has a `th`: the first such row gets a markdown separator line. */
  th: boolean;
  /** Inside another table's cell: rows become spaces so the outer row stays on one line. */
  nested: boolean;
  /** Draws code: 0 no; 1 inside a pre that the table does not own; 2 it opened the code block itself. */
  code: number;
}

/** The open tables of one conversion, innermost last, writing into its {@link Layout}. */
export class Tables {
  private readonly open: Table[] = [];
  /** Open cells, over all tables. */
  private cells = 0;
  /** Open code tables: while 0, text needs no look at the tables. */
  codeTables = 0;

  constructor(private readonly out: Layout) {}

  /**
   * A `table` start tag. `code`: a code table (by its class); inside pre every table is one.
   * @param lang the code block's language, for a code table that opens one.
   */
  start(code: boolean, lang: string): void {
    const out = this.out;
    if (out.pre || code) {
      const owns = !out.pre;
      if (owns) out.startPre(lang);
      this.open.push({ cells: 0, rows: 0, th: false, nested: false, code: owns ? 2 : 1 });
      this.codeTables++;
      return;
    }
    const nested = this.cells > 0;
    if (!nested) out.newline(2);
    this.open.push({ cells: 0, rows: 0, th: false, nested, code: 0 });
  }

  /** A `table` end tag (or its implied end). */
  end(): void {
    const t = this.open.pop();
    if (t?.code) {
      this.codeTables--;
      if (t.code === 2) this.out.endPre();
      return;
    }
    if (t && t.cells > 0) this.endRow(t);
    if (t && !t.nested) this.out.newline(2);
  }

  /** Whether text here is between the cells of a code table (whitespace of the markup, dropped). */
  get betweenCodeCells(): boolean {
    const t = this.open[this.open.length - 1];
    return t !== undefined && t.code > 0 && t.cells === 0;
  }

  /** Whether the innermost table is a code table that opened its own code block. */
  get ownsCode(): boolean {
    return this.open[this.open.length - 1]?.code === 2;
  }

  /**
   * A `td`/`th` that is a line-number gutter: in a code table it is skipped; the first cell of a
   * table not yet known as code makes it one (hexo draws a class-less table with `td.gutter`).
   * @returns whether the caller skips the cell.
   */
  gutter(lang: string): boolean {
    const t = this.open[this.open.length - 1];
    if (t === undefined) return false;
    if (t.code) return true;
    if (t.rows > 0 || t.cells > 0 || t.nested) return false;
    this.out.startPre(lang);
    t.code = 2;
    this.codeTables++;
    return true;
  }

  /** A `tr` start tag; false outside any table (the caller treats it as a block). */
  startRow(): boolean {
    const t = this.open[this.open.length - 1];
    if (t === undefined) return false;
    if (t.code) return true;
    if (t.cells > 0) this.endRow(t);
    if (t.nested) this.out.sp = true;
    else this.out.newline(1);
    return true;
  }

  /** A `tr` end tag: in a code table, the end of a line. */
  closeRow(): void {
    const t = this.open[this.open.length - 1];
    if (t?.code) this.out.newline(1);
    else if (t) this.endRow(t);
  }

  /** A `td`/`th` start tag; false outside any table (the caller treats it as inline). */
  startCell(th: boolean): boolean {
    const t = this.open[this.open.length - 1];
    if (t === undefined) return false;
    const out = this.out;
    if (t.code) {
      t.cells++;
      this.cells++;
      out.inline++;
      return true;
    }
    if (t.nested) {
      if (t.cells > 0) out.raw(' | ');
      else out.sp = true;
    } else {
      if (t.cells === 0) out.newline(1);
      out.raw(t.cells > 0 ? ' | ' : '| ');
    }
    t.cells++;
    if (th) t.th = true;
    out.inline++;
    this.cells++;
    return true;
  }

  /** A `td`/`th` end tag. */
  closeCell(): void {
    this.out.inline--;
    this.cells--;
    const t = this.open[this.open.length - 1];
    if (t?.code) t.cells--;
  }

  private endRow(t: Table): void {
    const out = this.out;
    if (t.nested) {
      out.sp = true;
    } else if (t.cells > 0) {
      out.raw(' |');
      if (t.rows === 0 && t.th) {
        out.newline(1);
        out.raw('|' + ' --- |'.repeat(t.cells));
      }
      t.rows++;
      out.newline(1);
    }
    t.cells = 0;
    t.th = false;
  }
}

/**
 * Tables for the HTML reducer: each `tr` becomes one markdown row `| a | b |`, the first row that has a
 * `th` is followed by a `| --- |` separator line, and a table inside another table's cell is flattened
 * to spaces so the outer row stays on one line.
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
}

/** The open tables of one conversion, innermost last, writing into its {@link Layout}. */
export class Tables {
  private readonly open: Table[] = [];
  /** Open cells, over all tables. */
  private cells = 0;

  constructor(private readonly out: Layout) {}

  /** A `table` start tag. */
  start(): void {
    const nested = this.cells > 0;
    if (!nested) this.out.newline(2);
    this.open.push({ cells: 0, rows: 0, th: false, nested });
  }

  /** A `table` end tag (or its implied end). */
  end(): void {
    const t = this.open.pop();
    if (t && t.cells > 0) this.endRow(t);
    if (t && !t.nested) this.out.newline(2);
  }

  /** A `tr` start tag; false outside any table (the caller treats it as a block). */
  startRow(): boolean {
    const t = this.open[this.open.length - 1];
    if (t === undefined) return false;
    if (t.cells > 0) this.endRow(t);
    if (t.nested) this.out.sp = true;
    else this.out.newline(1);
    return true;
  }

  /** A `tr` end tag. */
  closeRow(): void {
    const t = this.open[this.open.length - 1];
    if (t) this.endRow(t);
  }

  /** A `td`/`th` start tag; false outside any table (the caller treats it as inline). */
  startCell(th: boolean): boolean {
    const t = this.open[this.open.length - 1];
    if (t === undefined) return false;
    const out = this.out;
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

/**
 * A small terminal emulator for frame tests: it plays the bytes Ink writes (text, CR, LF as a tty's
 * `onlcr` makes it, cursor moves, erases, clears) onto a screen of `columns × rows` cells with a
 * scrollback above it, so a test reads what a person would see and scroll back to. Widths are
 * `string-width`'s (a CJK character or an emoji is two cells). A line wider than the screen wraps as
 * a terminal's auto-wrap does, and the rows it spills onto are counted in `autoWrapped`.
 * The alternate screen (`ESC[?1049h` … `ESC[?1049l`) is a screen of its own with no scrollback;
 * leaving it brings back the main screen and cursor as they were. A resize reflows as tmux does (see
 * {@link VirtualTerminal.resize}), and `ESC[J` from the top left corner scrolls the screen into the
 * scrollback as tmux's `scroll-on-clear` does. Not a full VT: colours and the other modes are ignored.
 */
import stringWidth from 'string-width';

interface Row {
  cells: string[];
  /** The row continues the one above it: the line before it ran past the right edge. */
  wrapped: boolean;
}

const segmenter = new Intl.Segmenter();
const blankRow = (columns: number): Row => ({ cells: Array<string>(columns).fill(' '), wrapped: false });

export class VirtualTerminal {
  private screen: Row[];
  private history: Row[] = [];
  private row = 0;
  private col = 0;
  private pendingWrap = false;
  /** Rows at the end of the scrollback that scrolling or a resize put there (tmux's `hscrolled`). */
  private scrolled = 0;
  /** While the alternate screen is up: the main screen and its cursor, as they were. */
  private saved: { screen: Row[]; row: number; col: number } | undefined;
  /** The cursor as `ESC 7` saved it, for `ESC 8`. */
  private savedCursor: { row: number; col: number } | undefined;
  /** Times the screen was cleared (`ESC[2J`) and the scrollback dropped (`ESC[3J`). */
  clears = { screen: 0, scrollback: 0 };
  /** Rows that exist only because a line ran past the right edge. */
  autoWrapped = 0;
  /** Every byte played, in order. */
  recorded = '';

  constructor(
    public columns: number,
    public rows: number,
  ) {
    this.screen = Array.from({ length: rows }, () => blankRow(columns));
  }

  /** Plays `data` onto the screen. */
  write(data: string): void {
    this.recorded += data;
    let i = 0;
    while (i < data.length) {
      const ch = data[i];
      if (ch === '\u001b') {
        i = this.escape(data, i);
        continue;
      }
      if (ch === '\n') this.lineFeed();
      else if (ch === '\r') this.moveTo(this.row, 0);
      else if (ch === '\b') this.moveTo(this.row, Math.max(0, this.col - 1));
      else if (ch === '\t')
        this.moveTo(this.row, Math.min(this.columns - 1, (Math.floor(this.col / 8) + 1) * 8));
      else if (ch >= ' ') {
        let j = i;
        while (j < data.length && data[j] >= ' ' && data[j] !== '\u001b' && data[j] !== '\u007f') j++;
        for (const { segment } of segmenter.segment(data.slice(i, j))) this.print(segment);
        i = j;
        continue;
      }
      i++;
    }
  }

  /** The screen's rows, right-trimmed. */
  screenLines(): string[] {
    return this.screen.map(text);
  }

  /** As {@link allLines}, with the rows a line wrapped onto (auto-wrap, a reflow) joined back into it. */
  allJoined(): string[] {
    const lines: string[] = [];
    for (const r of [...this.history, ...this.screen]) {
      if (r.wrapped && lines.length > 0) lines[lines.length - 1] += r.cells.join('');
      else lines.push(r.cells.join(''));
    }
    const trimmed = lines.map((l) => l.trimEnd());
    while (trimmed.length > 0 && trimmed[trimmed.length - 1] === '') trimmed.pop();
    return trimmed;
  }

  /** Whether the alternate screen is up. */
  get alternate(): boolean {
    return this.saved !== undefined;
  }

  /** Scrollback then screen, right-trimmed, with trailing empty rows dropped: all a person can read. */
  allLines(): string[] {
    const lines = [...this.history, ...this.screen].map(text);
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return lines;
  }

  /**
   * Changes the size as tmux 3.3 does (`screen_resize_cursor`). The height first, at the old width:
   * shorter, it drops rows from the bottom up to the cursor's row, then moves rows from the top into
   * the scrollback; taller, it brings back rows the scrollback took by scrolling or resizing, then
   * adds blank rows below. Then, on a new width, every line (scrollback and screen, blank rows too)
   * is reflowed: rows a line wrapped onto are joined back and the line split at the new width; the
   * screen shows the last `rows` rows, so rows the reflow adds push the top into the scrollback. The
   * cursor keeps its place in its line; left in the scrollback, it goes to the top left corner.
   */
  resize(columns: number, rows: number): void {
    if (this.saved) {
      // The main screen is resized as it would be; the alternate one starts blank at the new size.
      const { row, col } = this;
      Object.assign(this, this.saved);
      this.saved = undefined;
      this.resize(columns, rows);
      this.saved = { screen: this.screen, row: this.row, col: this.col };
      this.screen = Array.from({ length: rows }, () => blankRow(columns));
      this.moveTo(row, col);
      return;
    }
    this.resizeHeight(rows);
    if (columns !== this.columns) this.reflow(columns);
  }

  private resizeHeight(rows: number) {
    if (rows < this.rows) {
      let needed = this.rows - rows;
      const below = Math.min(this.rows - 1 - this.row, needed);
      if (below > 0) this.screen.splice(this.rows - below, below);
      needed -= below;
      this.history.push(...this.screen.splice(0, needed));
      this.scrolled += needed;
      this.row -= needed;
    } else if (rows > this.rows) {
      const back = Math.min(this.scrolled, rows - this.rows, this.history.length);
      this.screen.unshift(...this.history.splice(this.history.length - back, back));
      this.scrolled -= back;
      this.row += back;
      while (this.screen.length < rows) this.screen.push(blankRow(this.columns));
    }
    this.rows = rows;
  }

  private reflow(columns: number) {
    const all = [...this.history, ...this.screen];
    const cursorAt = this.history.length + this.row;
    /** Each line's cells, wrapped rows joined back; the cursor's line and its offset in it. */
    const lines: string[][] = [];
    let cursor = { line: 0, offset: 0 };
    all.forEach((r, i) => {
      const cells = r.cells.slice();
      // A row a line continues on from keeps its cells; a line's last row ends at its last character.
      if (!all[i + 1]?.wrapped) while (cells.length > 0 && cells[cells.length - 1] === ' ') cells.pop();
      if (r.wrapped && lines.length > 0) lines[lines.length - 1].push(...cells);
      else lines.push(cells);
      if (i === cursorAt) {
        const line = lines[lines.length - 1];
        cursor = { line: lines.length - 1, offset: line.length - cells.length + this.col };
      }
    });
    const reflowed: Row[] = [];
    let at = { row: 0, col: 0 };
    lines.forEach((cells, n) => {
      let row = blankRow(columns);
      let col = 0;
      const first = reflowed.length;
      for (const cell of cells) {
        if (cell === '') continue;
        const w = Math.max(1, stringWidth(cell));
        if (col + w > columns) {
          reflowed.push(row);
          row = { ...blankRow(columns), wrapped: true };
          col = 0;
        }
        row.cells[col] = cell;
        for (let k = 1; k < w; k++) row.cells[col + k] = '';
        col += w;
      }
      reflowed.push(row);
      if (n === cursor.line) {
        const r = Math.min(first + Math.floor(cursor.offset / columns), reflowed.length - 1);
        at = { row: r, col: cursor.offset - (r - first) * columns };
      }
    });
    while (reflowed.length < this.rows) reflowed.push(blankRow(columns));
    const historySize = reflowed.length - this.rows;
    this.history = reflowed.slice(0, historySize);
    this.screen = reflowed.slice(historySize);
    this.scrolled = Math.min(this.scrolled, historySize);
    this.columns = columns;
    if (at.row >= historySize) this.moveTo(at.row - historySize, at.col);
    else this.moveTo(0, 0);
  }

  /** DEC mode 1049: save the cursor and show a blank screen, or bring the main screen back. */
  private alternateScreen(on: boolean) {
    if (on && !this.saved) {
      this.saved = { screen: this.screen, row: this.row, col: this.col };
      this.screen = Array.from({ length: this.rows }, () => blankRow(this.columns));
    } else if (!on && this.saved) {
      this.screen = this.saved.screen;
      this.row = this.saved.row;
      this.col = this.saved.col;
      this.saved = undefined;
    }
    this.pendingWrap = false;
  }

  private print(g: string) {
    const w = stringWidth(g);
    if (w === 0) return;
    if (this.pendingWrap || this.col + w > this.columns) {
      this.lineFeed();
      this.screen[this.row].wrapped = true;
      this.autoWrapped++;
    }
    const cells = this.screen[this.row].cells;
    cells[this.col] = g;
    for (let k = 1; k < w; k++) cells[this.col + k] = '';
    this.col += w;
    if (this.col >= this.columns) {
      this.col = this.columns - 1;
      this.pendingWrap = true;
    }
  }

  /** A tty turns LF into CR LF (onlcr); an auto-wrap also goes on at column 0. */
  private lineFeed() {
    this.pendingWrap = false;
    this.col = 0;
    if (this.row === this.rows - 1) {
      const gone = this.screen.shift()!;
      if (!this.saved) {
        this.history.push(gone);
        this.scrolled++;
      }
      this.screen.push(blankRow(this.columns));
    } else this.row++;
  }

  private moveTo(row: number, col: number) {
    this.pendingWrap = false;
    this.row = Math.max(0, Math.min(this.rows - 1, row));
    this.col = Math.max(0, Math.min(this.columns - 1, col));
  }

  private erase(row: Row, from: number, to: number) {
    for (let k = from; k < to; k++) row.cells[k] = ' ';
  }

  /** Handles the escape sequence at `data[i]`; returns the index after it. */
  private escape(data: string, i: number): number {
    const next = data[i + 1];
    if (next === ']') {
      // OSC: up to BEL or ST.
      const bel = data.indexOf('\u0007', i);
      const st = data.indexOf('\u001b\\', i);
      const end = [bel === -1 ? Infinity : bel + 1, st === -1 ? Infinity : st + 2].reduce((a, b) =>
        Math.min(a, b),
      );
      return end === Infinity ? data.length : end;
    }
    if (next === '7') this.savedCursor = { row: this.row, col: this.col };
    if (next === '8' && this.savedCursor) this.moveTo(this.savedCursor.row, this.savedCursor.col);
    if (next !== '[') return i + 2;
    let j = i + 2;
    while (j < data.length && !/[@-~]/.test(data[j])) j++;
    const params = data.slice(i + 2, j);
    const final = data[j];
    const nums = params
      .replace(/^\?/, '')
      .split(';')
      .map((p) => (p === '' ? NaN : Number(p)));
    const n = Number.isNaN(nums[0]) ? 1 : nums[0];
    const zero = Number.isNaN(nums[0]) ? 0 : nums[0];
    if (params === '?1049' && (final === 'h' || final === 'l')) this.alternateScreen(final === 'h');
    if (params.startsWith('?')) return j + 1;
    switch (final) {
      case 'A':
        this.moveTo(this.row - n, this.col);
        break;
      case 'B':
        this.moveTo(this.row + n, this.col);
        break;
      case 'C':
        this.moveTo(this.row, this.col + n);
        break;
      case 'D':
        this.moveTo(this.row, this.col - n);
        break;
      case 'E':
        this.moveTo(this.row + n, 0);
        break;
      case 'F':
        this.moveTo(this.row - n, 0);
        break;
      case 'G':
        this.moveTo(this.row, n - 1);
        break;
      case 'H':
      case 'f':
        this.moveTo(n - 1, (Number.isNaN(nums[1]) || nums[1] === undefined ? 1 : nums[1]) - 1);
        break;
      case 'J':
        if (zero === 3) {
          this.clears.scrollback++;
          this.history = [];
          this.scrolled = 0;
        } else if (zero === 2) {
          this.clears.screen++;
          // As xterm does: the screen is blanked, not scrolled into the history.
          this.screen = Array.from({ length: this.rows }, () => blankRow(this.columns));
        } else if (zero === 0 && this.row === 0 && this.col === 0 && !this.saved) {
          // As tmux does (`scroll-on-clear`, on by default): erasing the whole screen from its top
          // left corner scrolls what it shows into the scrollback, up to its last row with text.
          const last = this.screen.findLastIndex((r) => text(r) !== '');
          this.history.push(...this.screen.slice(0, last + 1));
          this.scrolled += last + 1;
          this.screen = Array.from({ length: this.rows }, () => blankRow(this.columns));
        } else {
          this.erase(this.screen[this.row], this.col, this.columns);
          for (let r = this.row + 1; r < this.rows; r++) this.screen[r] = blankRow(this.columns);
        }
        break;
      case 'K': {
        const row = this.screen[this.row];
        if (zero === 0) this.erase(row, this.col, this.columns);
        else if (zero === 1) this.erase(row, 0, this.col + 1);
        else this.erase(row, 0, this.columns);
        break;
      }
      default:
        break;
    }
    return j + 1;
  }
}

function text(row: Row): string {
  return row.cells.join('').trimEnd();
}

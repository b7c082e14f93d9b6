import { stripVTControlCharacters } from 'node:util';
import type { AltScreen } from '../../src/tui/terminal/alt-screen';

/** An alternate screen that keeps what the viewer drew: whether it is up, and its last frame. */
export class FakeScreen implements AltScreen {
  up = false;
  entered = 0;
  /** The rows of the latest draw, without SGR codes. */
  rows: string[] = [];
  draws = 0;
  enter() {
    if (!this.up) this.entered++;
    this.up = true;
  }
  draw(rows: readonly string[]) {
    if (!this.up) throw new Error('drawn while the alternate screen is down');
    this.rows = rows.map((r) => stripVTControlCharacters(r));
    this.draws++;
  }
  leave() {
    this.up = false;
  }
  /** The latest draw as one string. */
  text(): string {
    return this.rows.join('\n');
  }
}

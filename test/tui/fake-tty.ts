import { EventEmitter } from 'node:events';

/** Just enough of a TTY's stdin for Ink (as in ink-testing-library). */
export class FakeStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write(data: string) {
    this.data = data;
    this.emit('readable');
  }
  read() {
    const d = this.data;
    this.data = null;
    return d;
  }
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

/** A TTY's stdout that keeps what was written, chunk by chunk (`writes`) and whole (`output`). */
export class FakeStdout extends EventEmitter {
  isTTY = true;
  columns = 100;
  rows = 40;
  writes: string[] = [];
  output = '';
  write(s: string) {
    this.writes.push(s);
    this.output += s;
    return true;
  }
}

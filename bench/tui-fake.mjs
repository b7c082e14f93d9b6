// The fakes bench/tui-render.mjs drives the Ink app with: a TTY-like stdout that counts bytes, a raw
// stdin, the Controller contract of src/tui/app/controller.ts, and the reply text it streams.
import { EventEmitter } from 'node:events';

/** How long {@link Screen.until} waits for a frame, in ms. */
export const DEADLINE_MS = 30_000;

/** A terminal's stdout: 120×40, a TTY to Ink; counts bytes and keeps a tail to wait on. */
export class Screen extends EventEmitter {
  columns = 120;
  rows = 40;
  isTTY = true;
  bytes = 0;
  writes = 0;
  tail = '';
  waiters = [];
  write(chunk, enc, cb) {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    this.bytes += Buffer.byteLength(text);
    this.writes++;
    this.tail = (this.tail + text).slice(-8192);
    for (const w of this.waiters.splice(0)) if (!w(text)) this.waiters.push(w);
    (typeof enc === 'function' ? enc : cb)?.();
    return true;
  }
  /** Resolves on the next write for which `test(chunk, tail)` holds; rejects after DEADLINE_MS. */
  until(what, test = () => true) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `no frame with ${what} after ${DEADLINE_MS} ms; last output: ${JSON.stringify(this.tail.slice(-1500))}`,
            ),
          ),
        DEADLINE_MS,
      );
      this.waiters.push((chunk) => {
        if (!test(chunk, this.tail)) return false;
        clearTimeout(timer);
        resolve();
        return true;
      });
    });
  }
}

/** A TTY stdin in raw mode, as ink-testing-library's: each write is one read. */
export class Keyboard extends EventEmitter {
  isTTY = true;
  data = null;
  type(text) {
    this.data = text;
    this.emit('readable');
    this.emit('data', text);
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

export const usageOf = (n) => ({
  input_tokens: 1200 * n,
  output_tokens: 300 * n,
  cache_read_input_tokens: 1000 * n,
  cache_creation_input_tokens: 100 * n,
  web_search_requests: 0,
});

/** The Controller contract of src/tui/app/controller.ts; turns are driven from outside. */
export class BenchController {
  model = 'claude-opus-4-8';
  webStatus = 'web off';
  mode = 'default';
  setMode(mode) {
    this.mode = mode;
  }
  notices = [];
  theme = 'dark';
  listeners = new Set();
  finishRun = undefined;
  onRun = undefined;
  turns = 0;
  constructor(workspace, historyFile) {
    this.workspace = workspace;
    this.historyFile = historyFile;
  }
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(event) {
    for (const l of this.listeners) l(event);
  }
  run(prompt) {
    return new Promise((resolve) => {
      this.finishRun = resolve;
      this.onRun?.(prompt);
    });
  }
  setApprovalHandler() {}
  clear() {}
  setModel(name) {
    this.model = name;
  }
  usage() {
    return usageOf(this.turns);
  }
  cost() {
    return { dollars: 0, unpriced: [] };
  }
  tools() {
    return [];
  }
  async worktree() {
    throw new Error('not in the benchmark');
  }
}

// Reply text: paragraphs of prose with some markdown, and now and then a short fenced block.
const WORDS = (
  'the loop streams each token of the answer while the **status line** keeps count and ' +
  'a `tool_result` goes back to the model so the next request can read it and `npm test` passes'
).split(' ');
export function replyText(chars, seed = 0) {
  let out = '';
  let p = seed;
  while (out.length < chars) {
    if (p % 6 === 5)
      out += '```ts\nconst total = items.reduce((a, b) => a + b, 0);\nconsole.log(total);\n```\n\n';
    else if (p % 6 === 3) out += '- first point about the change\n- second point, with `code`\n\n';
    else {
      const n = 40 + (p % 5) * 8;
      const words = Array.from({ length: n }, (_, i) => WORDS[(i * 7 + p) % WORDS.length]);
      out += `${words.join(' ')}.\n\n`;
    }
    p++;
  }
  return out;
}
/** `text` cut into deltas of 3 to 7 characters (about a token each). */
export function deltasOf(text, count) {
  const out = [];
  let i = 0;
  while (out.length < count && i < text.length) {
    const n = 3 + (out.length % 5);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

export const BASH_OUTPUT = Array.from(
  { length: 20 },
  (_, i) => `line ${i + 1}: ok test/case-${i}.test.ts`,
).join('\n');

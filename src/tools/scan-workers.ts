import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FileEntry } from './search-files';
import { ToolError } from './tool';

/**
 * Worker threads that read files for grep's JavaScript engine and stat them for glob, on every core,
 * while the main thread walks the tree and answers signals.
 *
 * A JavaScript regex can backtrack for hours (`^(a+)+$` on forty `a`s and a `!`), and while it runs
 * nothing else in its thread does. The regex therefore runs in the workers only, and the main thread
 * watches them: a worker that spends longer than the deadline on one file's lines, or a search that
 * is aborted (Esc, a signal), ends with the workers terminated.
 */

/** Longest a regex may take on one file's lines before the search is stopped (ms). */
const REGEX_DEADLINE_MS = 5_000;

/** What the workers do with each file of a batch. */
export type ScanSpec =
  | { kind: 'stat' }
  | {
      kind: 'grep';
      /** The regex (`RegExp.source`, `.flags`), matched line by line. */
      source: string;
      flags: string;
      /** Set when the pattern is this plain string: then it is searched as bytes, no regex run. */
      literal?: string;
      mode: 'files_with_matches' | 'count' | 'content';
      /** content mode: matching lines sent per file at most; longer lines are cut to `lineChars + 1`. */
      maxLines: number;
      lineChars: number;
    };

/**
 * One file's answer, by index in its batch (files without one are left out). stat: `mtime` (ms, 0
 * when it cannot be stat'ed). grep: `count` of matching lines (1 in files_with_matches mode) and,
 * in content mode, the `lines` (1-based `n`, `text` cut as {@link ScanSpec} says, `length` of the
 * whole line).
 */
export interface ScanResult {
  index: number;
  mtime?: number;
  count?: number;
  lines?: { n: number; text: string; length: number }[];
}

// CommonJS, run with `eval: true`: the same text works from the sources (tests) and the bundle.
// progress[0] is odd while a regex runs on a file and counts up; progress[1] is that file's index.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const spec = workerData.spec;
const progress = new Int32Array(workerData.progress);
const chunk = Buffer.allocUnsafe(64 * 1024);
const OPEN = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK || 0);
const re = spec.kind === 'grep' ? new RegExp(spec.source, spec.flags) : undefined;
const needle = spec.literal === undefined ? undefined : Buffer.from(spec.literal);
const NOT_TEXT = 0;

function encodingOf(buf) {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return 'utf8-bom';
  if (buf[0] === 0xff && buf[1] === 0xfe) return 'utf-16le';
  if (buf[0] === 0xfe && buf[1] === 0xff) return 'utf-16be';
  return 'utf8';
}
const isUtf16 = (enc) => enc === 'utf-16le' || enc === 'utf-16be';

// How much of a file whose first NUL byte is at nul ripgrep searches (ripgrep 13/14 on a file found
// by its walk): it reads 3 bytes (looking for a byte-order mark), then as much as fills a 64 KiB
// buffer (3 times larger whenever one line fills it), searches the whole lines of each read, and stops
// at the read that brings the NUL: the lines that ended before that read are searched, nothing after.
function searchedBeforeNul(buf, nul) {
  let size = chunk.length;
  let done = 0;
  let end = 0;
  for (let first = true; ; first = false) {
    if (end - done >= size) size *= 3;
    const from = end;
    end = Math.min(end + (first ? 3 : size - (end - done)), buf.length);
    if (nul < end) return done;
    const lineEnd = buf.lastIndexOf(10, end - 1);
    if (lineEnd >= from) done = lineEnd + 1;
  }
}

// What is searched of a binary file (a NUL at nul): the part before the NUL that ripgrep searches, in
// content and files_with_matches mode; nothing in count mode, where ripgrep counts a binary file as 0.
function textOfBinary(buf, nul) {
  const n = spec.mode === 'count' ? 0 : searchedBeforeNul(buf, nul);
  return n === 0 ? NOT_TEXT : buf.subarray(0, n);
}

// The file's bytes to search: all of a text file; of a binary one (a NUL byte, looked for in the
// first chunk before the rest is read) what textOfBinary keeps, or NOT_TEXT; undefined when it cannot
// be read. A FIFO put in a file's place fails, never waits.
function read(file) {
  let fd;
  try {
    fd = fs.openSync(file, OPEN);
  } catch {
    return undefined;
  }
  try {
    const n = fs.readSync(fd, chunk, 0, chunk.length, 0);
    const head = chunk.subarray(0, n);
    const utf16 = isUtf16(encodingOf(head));
    const early = utf16 ? -1 : head.indexOf(0);
    if (early >= 0) return textOfBinary(head, early);
    if (n < chunk.length) return head;
    let buf = Buffer.allocUnsafe(Math.max(fs.fstatSync(fd).size + 1, 2 * chunk.length));
    chunk.copy(buf);
    let len = n;
    for (;;) {
      if (len === buf.length) {
        const bigger = Buffer.allocUnsafe(2 * buf.length);
        buf.copy(bigger);
        buf = bigger;
      }
      const k = fs.readSync(fd, buf, len, buf.length - len, len);
      if (k === 0) break;
      len += k;
    }
    buf = buf.subarray(0, len);
    const late = utf16 ? -1 : buf.indexOf(0, n);
    return late >= 0 ? textOfBinary(buf, late) : buf;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

function lines(buf, enc) {
  const start = enc === 'utf8-bom' ? 3 : isUtf16(enc) ? 2 : 0;
  const text = new TextDecoder(enc === 'utf8-bom' ? 'utf-8' : enc, { ignoreBOM: true }).decode(buf.subarray(start));
  if (text === '') return [];
  const all = text.split('\\n');
  if (all[all.length - 1] === '') all.pop();
  for (let i = 0; i < all.length; i++) if (all[i].endsWith('\\r')) all[i] = all[i].slice(0, -1);
  return all;
}

function grepFile(buf, index) {
  const enc = encodingOf(buf);
  // A plain string found nowhere in the bytes is on no line (it holds no newline, no BOM).
  if (needle && !isUtf16(enc) && buf.indexOf(needle) < 0) return undefined;
  if (needle && !isUtf16(enc) && spec.mode === 'files_with_matches') return { index, count: 1 };
  const all = lines(buf, enc);
  const first = spec.mode === 'files_with_matches';
  const found = [];
  let count = 0;
  progress[1] = index;
  Atomics.add(progress, 0, 1);
  for (let i = 0; i < all.length; i++) {
    let hit;
    if (needle) hit = all[i].includes(spec.literal);
    else {
      re.lastIndex = 0;
      hit = re.test(all[i]);
    }
    if (!hit) continue;
    count++;
    if (first) break;
    if (spec.mode === 'content') {
      const line = all[i];
      found.push({ n: i + 1, text: line.length > spec.lineChars ? line.slice(0, spec.lineChars + 1) : line, length: line.length });
      if (found.length === spec.maxLines) break;
    }
  }
  Atomics.add(progress, 0, 1);
  if (count === 0) return undefined;
  return spec.mode === 'content' ? { index, count, lines: found } : { index, count };
}

function scan(file, index) {
  const buf = read(file);
  return buf ? grepFile(buf, index) : undefined;
}

parentPort.on('message', (m) => {
  const files = m.files.split('\0');
  if (spec.kind === 'stat') {
    const times = new Float64Array(files.length);
    for (let i = 0; i < files.length; i++) {
      const st = fs.statSync(files[i], { throwIfNoEntry: false });
      times[i] = st ? st.mtimeMs : 0;
    }
    return parentPort.postMessage({ id: m.id, times }, [times.buffer]);
  }
  const results = [];
  for (let i = 0; i < files.length; i++) {
    let r;
    try {
      r = scan(files[i], i);
    } catch {
      r = undefined; // e.g. a file too large for one buffer: left out, as an unreadable one
    }
    if (r) results.push(r);
  }
  parentPort.postMessage({ id: m.id, results });
});
`;

interface Job {
  id: number;
  files: readonly FileEntry[];
  resolve: (results: ScanResult[]) => void;
  reject: (err: unknown) => void;
}

interface Slot {
  worker: Worker;
  progress: Int32Array;
  job?: Job;
  /** The progress count last seen, and when it last moved (ms). */
  seen: number;
  since: number;
}

/**
 * A pool of up to `size` workers (default: one per core, at most 4), started as batches queue up.
 * {@link close} it when the search ends.
 */
export class ScanPool {
  readonly #spec: ScanSpec;
  readonly #size: number;
  readonly #deadlineMs: number;
  readonly #signal?: AbortSignal;
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  readonly #onAbort = () => this.#fail(this.#signal?.reason);
  #watch?: NodeJS.Timeout;
  #next = 0;
  #failed?: unknown;

  constructor(spec: ScanSpec, opts: { size?: number; deadlineMs?: number; signal?: AbortSignal } = {}) {
    this.#spec = spec;
    this.#size = Math.max(1, opts.size ?? Math.min(availableParallelism(), 4));
    this.#deadlineMs = opts.deadlineMs ?? REGEX_DEADLINE_MS;
    this.#signal = opts.signal;
    this.#signal?.addEventListener('abort', this.#onAbort, { once: true });
    if (this.#signal?.aborted) this.#onAbort();
  }

  /**
   * Scan one batch of files; resolves with the answers of the files that have one, in batch order.
   * @throws ToolError "the regex took too long on REL; simplify it" after the deadline; the signal's
   *   reason when the search is aborted. Either way every worker is ended and later batches fail too.
   */
  run(files: readonly FileEntry[]): Promise<ScanResult[]> {
    if (this.#failed) return Promise.reject(this.#failed);
    return new Promise((resolve, reject) => {
      this.#queue.push({ id: this.#next++, files, resolve, reject });
      this.#dispatch();
    });
  }

  /** Ends the workers; safe to call more than once. */
  close(): void {
    this.#fail(new Error('the scan workers were closed'));
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const slot =
        this.#slots.find((s) => !s.job) ?? (this.#slots.length < this.#size ? this.#start() : undefined);
      if (!slot) return;
      const job = this.#queue.shift() as Job;
      slot.job = job;
      slot.since = Date.now();
      // One string, not an array of them: much cheaper to pass (a path holds no NUL).
      slot.worker.postMessage({ id: job.id, files: job.files.map((f) => f.abs).join('\0') });
    }
  }

  #start(): Slot {
    const shared = new SharedArrayBuffer(8);
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // Its own flags, not the parent's: a parent started with `--input-type=module -e` would
      // otherwise make this CommonJS source fail with "require is not defined".
      execArgv: [],
      workerData: { spec: this.#spec, progress: shared },
    });
    worker.unref();
    const slot: Slot = { worker, progress: new Int32Array(shared), seen: 0, since: Date.now() };
    worker.on('message', (m: { id: number; results?: ScanResult[]; times?: Float64Array }) => {
      const job = slot.job;
      if (job?.id !== m.id) return;
      slot.job = undefined;
      job.resolve(m.results ?? Array.from(m.times ?? [], (mtime, index) => ({ index, mtime })));
      this.#dispatch();
    });
    worker.on('error', (err) => this.#fail(err));
    worker.on('exit', () => this.#fail(new Error('a scan worker stopped')));
    this.#slots.push(slot);
    if (this.#spec.kind === 'grep' && this.#spec.literal === undefined && !this.#watch) {
      const every = Math.min(Math.max(this.#deadlineMs / 5, 5), 250);
      this.#watch = setInterval(() => this.#check(), every);
      this.#watch.unref();
    }
    return slot;
  }

  /** Ends the search when a worker's regex has run on one file for longer than the deadline. */
  #check(): void {
    const now = Date.now();
    for (const slot of this.#slots) {
      const seen = Atomics.load(slot.progress, 0);
      if (seen !== slot.seen || !slot.job) {
        slot.seen = seen;
        slot.since = now;
        continue;
      }
      if (seen % 2 === 1 && now - slot.since > this.#deadlineMs) {
        const file = slot.job.files[Atomics.load(slot.progress, 1)]?.rel ?? 'a file';
        this.#fail(
          new ToolError(
            `the regex took too long on ${file} (over ${this.#deadlineMs / 1000} s); simplify it: ` +
              'avoid nested or overlapping repetition such as (a+)+ or (a|a)*, and anchor it where you can',
          ),
        );
        return;
      }
    }
  }

  #fail(err: unknown): void {
    if (this.#failed) return;
    this.#failed = err;
    clearInterval(this.#watch);
    this.#signal?.removeEventListener('abort', this.#onAbort);
    for (const slot of this.#slots) {
      slot.job?.reject(err);
      slot.job = undefined;
      void slot.worker.terminate();
    }
    for (const job of this.#queue.splice(0)) job.reject(err);
  }
}

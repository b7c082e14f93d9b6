import { Worker } from 'node:worker_threads';
import { ToolError } from './tool';

/**
 * Regular expressions matched off the main thread. A JavaScript regex can backtrack for hours
 * (`^(a+)+$` on forty `a`s and a `!`), and while it runs nothing else does: not a signal handler, not
 * Esc. The grep tool's JavaScript engine therefore matches in a worker thread; the main thread keeps
 * reading files and answering signals, and ends the worker (`terminate`) when the search is aborted
 * or one file takes longer than the deadline.
 */

/** Longest a regex may take on one file's lines before the search is stopped (ms). */
const REGEX_DEADLINE_MS = 5_000;

// CommonJS, run with `eval: true`: the same text works from the sources (tests) and the bundle.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const re = new RegExp(workerData.source, workerData.flags);
parentPort.on('message', (m) => {
  const hits = [];
  for (let i = 0; i < m.lines.length; i++) {
    re.lastIndex = 0;
    if (re.test(m.lines[i])) {
      hits.push(i);
      if (m.first) break;
    }
  }
  parentPort.postMessage({ id: m.id, hits });
});
`;

/** One worker holding one compiled regex; {@link close} it when the search ends. */
export class RegexMatcher {
  readonly #worker: Worker;
  readonly #deadlineMs: number;
  readonly #signal?: AbortSignal;
  #next = 0;
  #pending?: { id: number; resolve: (hits: number[]) => void; reject: (err: unknown) => void };
  #failed?: unknown;

  constructor(re: RegExp, opts: { deadlineMs?: number; signal?: AbortSignal } = {}) {
    this.#deadlineMs = opts.deadlineMs ?? REGEX_DEADLINE_MS;
    this.#signal = opts.signal;
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // Its own flags, not the parent's: a parent started with `--input-type=module -e` would
      // otherwise make this CommonJS source fail with "require is not defined".
      execArgv: [],
      workerData: { source: re.source, flags: re.flags },
    });
    this.#worker.unref();
    this.#worker.on('message', (m: { id: number; hits: number[] }) => {
      if (this.#pending?.id === m.id) this.#pending.resolve(m.hits);
    });
    this.#worker.on('error', (err) => this.#fail(err));
    this.#worker.on('exit', () => this.#fail(new Error('the regex worker stopped')));
  }

  #fail(err: unknown): void {
    this.#failed ??= err;
    this.#pending?.reject(this.#failed);
    this.#pending = undefined;
  }

  /**
   * Indices of the lines `re` matches (only the first when `first`), in order.
   * @throws ToolError "the regex took too long on FILE; simplify it" after the deadline; the
   *   signal's reason when the search is aborted. Either way the worker is ended.
   */
  match(lines: readonly string[], first: boolean, file: string): Promise<number[]> {
    if (this.#failed) return Promise.reject(this.#failed);
    const id = this.#next++;
    return new Promise<number[]>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.#signal?.removeEventListener('abort', onAbort);
        this.#pending = undefined;
      };
      const stop = (err: unknown) => {
        done();
        this.#failed ??= err;
        void this.#worker.terminate();
        reject(err);
      };
      const onAbort = () => stop(this.#signal?.reason);
      const timer = setTimeout(
        () =>
          stop(
            new ToolError(
              `the regex took too long on ${file} (over ${this.#deadlineMs / 1000} s); simplify it: ` +
                'avoid nested or overlapping repetition such as (a+)+ or (a|a)*, and anchor it where you can',
            ),
          ),
        this.#deadlineMs,
      );
      this.#pending = {
        id,
        resolve: (hits) => {
          done();
          resolve(hits);
        },
        reject: (err) => {
          done();
          reject(err);
        },
      };
      if (this.#signal?.aborted) return onAbort();
      this.#signal?.addEventListener('abort', onAbort, { once: true });
      this.#worker.postMessage({ id, lines, first });
    });
  }

  /** Ends the worker; safe to call more than once. */
  close(): void {
    this.#failed ??= new Error('the regex worker was closed');
    void this.#worker.terminate();
  }
}

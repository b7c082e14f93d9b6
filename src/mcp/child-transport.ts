/**
 * The MCP stdio transport over a child started by codey's one process runner (injected, so this
 * layer imports no process module): newline-delimited JSON-RPC on the child's stdin and stdout,
 * its stderr kept (the last part) to say why it ended.
 */
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { PipedChild, StartPiped } from '../util/exec-shapes';
import { startChild, type ChildCommand, type ChildWhere } from './child-start';

/** Characters of a server's stderr kept for "last error". */
const STDERR_TAIL = 2_000;

export class ChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #child?: PipedChild;
  #buffer = new ReadBuffer();
  /** The end of what the server wrote on stderr. */
  stderrTail = '';
  /** How the child ended, once it has. */
  ended?: { exitCode: number | null; signal: string | null; error?: string };

  /**
   * @param started the child when it was started before the SDK loaded (`startChild`); `start`
   *   then reads it instead of starting another.
   */
  constructor(
    private readonly command: ChildCommand,
    private readonly startPiped: StartPiped,
    private readonly where: ChildWhere,
    private readonly started?: PipedChild,
  ) {}

  /** The child's process id while it runs. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  async start(): Promise<void> {
    const child = this.started ?? startChild(this.command, this.startPiped, this.where);
    this.#child = child;
    void child.ended.then((how) => {
      this.ended = how;
      this.onclose?.();
    });
    if (child.pid === undefined) {
      const how = await child.ended;
      throw new Error(how.error ?? `could not start ${this.command.file}`);
    }
    child.stdout.on('data', (chunk: Buffer) => {
      this.#buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.#buffer.readMessage();
        } catch (err) {
          this.onerror?.(err as Error);
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.#child;
    if (!child || this.ended) return Promise.reject(new Error('the server is not running'));
    return new Promise((done) => {
      if (child.stdin.write(serializeMessage(message))) done();
      else child.stdin.once('drain', done);
    });
  }

  async close(): Promise<void> {
    await this.#child?.stop();
  }

  /** End the child's group at once (synchronous: for the process's `exit` handler). */
  kill(): void {
    if (!this.ended) this.#child?.kill();
  }
}

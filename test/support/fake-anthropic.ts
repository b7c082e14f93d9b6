/**
 * A fake Anthropic Messages API on 127.0.0.1 for tests: real HTTP, real SSE, scripted answers.
 *
 * ```ts
 * const fake = await startFakeAnthropic();
 * fake.enqueue(reply.toolUse('bash', { command: 'npm test' }), fault.status(529), reply.text('done'));
 * // point the code under test at fake.url, then assert on fake.requests
 * await fake.close();
 * ```
 *
 * Routes: POST /v1/messages (answers the next scripted {@link Step}), POST /v1/messages/count_tokens,
 * GET /v1/models and /v1/models/:id (from `models`); anything else is a 404 with the API's error JSON.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as tick, setTimeout as sleep } from 'node:timers/promises';
import type { ReplyStep, Step } from './fake-steps';
import { requestProblem } from './request-checks';
import {
  buildMessage,
  encodeEvent,
  errorBody,
  errorTypeForStatus,
  messageEvents,
  statusForErrorType,
} from './sse';

export { block, fault, reply, DEFAULT_USAGE } from './fake-steps';
export type { BlockSpec, ReplyStep, Step, StopReason, UsageSpec } from './fake-steps';
export { countCacheBreakpoints, requestProblem, toolResultsPaired } from './request-checks';

/** A request body, loosely typed for assertions (`{}` when the body was empty or not JSON). */
export interface RequestBody {
  model?: string;
  max_tokens?: number;
  stream?: boolean;
  system?: string | Array<Record<string, unknown>>;
  tools?: Array<Record<string, unknown>>;
  messages?: Array<{ role: string; content: string | Array<Record<string, unknown>> }>;
  [key: string]: unknown;
}

/** One request as the server received it, recorded before it is answered. */
export interface RecordedRequest {
  method: string;
  /** Path without the query, e.g. `/v1/messages`. */
  path: string;
  query: Record<string, string>;
  /** Header names lowercased; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: RequestBody;
  /** The body exactly as sent. */
  raw: string;
}

/** Scripts an answer when the queue is empty; `index` counts POST /v1/messages requests from 0. */
export type Responder = (req: RecordedRequest, index: number) => Step;

export interface FakeAnthropicOptions {
  /** Steps queued at start (same as calling `enqueue`). */
  steps?: Step[];
  respond?: Responder;
  /** Model objects served by GET /v1/models/:id, keyed by id; `type`, `id`, `display_name`, `created_at` are filled in. */
  models?: Record<string, object>;
  /** When set, a request whose `x-api-key` or `Authorization: Bearer` is not in the list gets a 401 (no step used). */
  apiKeys?: string[];
  /**
   * Refuse, as the real API does with a 400, a messages request with unpaired tool results, more than
   * 4 cache breakpoints, empty content or missing fields (see `requestProblem`). No step is used.
   * Default true.
   */
  validate?: boolean;
}

export interface FakeAnthropic {
  /** Base URL, e.g. `http://127.0.0.1:41234` (give it to the SDK as `baseURL`). */
  url: string;
  /** Every request, in arrival order. */
  requests: RecordedRequest[];
  /** The POST /v1/messages requests only. */
  readonly messageRequests: RecordedRequest[];
  /** Steps still queued. */
  readonly pending: number;
  /** Served by GET /v1/models; may be changed while running. */
  models: Record<string, object>;
  enqueue(...steps: Step[]): void;
  respond(fn: Responder | null): void;
  /** Lets every answer held by `holdAfterEvents` go on streaming. */
  release(): void;
  /** Resolves with the `count`-th request (from 1) once it has been recorded. */
  waitForRequest(count: number): Promise<RecordedRequest>;
  /** Stops the server and drops every open connection (hung requests included). */
  close(): Promise<void>;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function record(req: IncomingMessage, raw: string): RecordedRequest {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  let body: RequestBody = {};
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) body = parsed as RequestBody;
  } catch {
    // Left as {}: `raw` still shows what came.
  }
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    body,
    raw,
  };
}

/** Writes and waits until the bytes are handed to the socket; false when the peer is gone. */
function write(res: ServerResponse, chunk: Buffer): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  return new Promise((resolve) => res.write(chunk, (err) => resolve(!err)));
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed || res.headersSent) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { ...JSON_HEADERS, ...headers, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Starts the fake on 127.0.0.1 on a free port.
 * @returns once it listens. Nothing is shared between two fakes.
 */
export async function startFakeAnthropic(opts: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const queue: Step[] = [...(opts.steps ?? [])];
  let responder: Responder | null = opts.respond ?? null;
  const requests: RecordedRequest[] = [];
  const waiters: Array<{ count: number; resolve: (r: RecordedRequest) => void }> = [];
  const closing = new AbortController();
  const validate = opts.validate ?? true;
  let messageCount = 0;
  // Answers held mid-stream (`holdAfterEvents`), each waiting for release().
  let holds: Array<() => void> = [];

  /** Streams `events` (or the first `limit` of them) one write per half event, yielding between writes. */
  async function streamEvents(res: ServerResponse, requestId: string, events: string[]): Promise<boolean> {
    if (!res.headersSent) {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'request-id': requestId,
      });
      res.flushHeaders();
    }
    for (const text of events) {
      // Two writes per event, split mid-byte-sequence, so consumers must join lines and UTF-8 across chunks.
      const bytes = Buffer.from(text, 'utf8');
      const half = Math.floor(bytes.length / 2);
      for (const part of [bytes.subarray(0, half), bytes.subarray(half)]) {
        if (!(await write(res, part))) return false;
        await tick();
      }
    }
    return true;
  }

  async function serveStep(
    step: Step,
    req: RecordedRequest,
    res: ServerResponse,
    requestNo: number,
  ): Promise<void> {
    const requestId = `req_fake_${requestNo}`;
    if (step.delayMs) {
      try {
        await sleep(step.delayMs, undefined, { signal: closing.signal });
      } catch {
        return; // closed while waiting
      }
    }
    const stream = req.body.stream === true;
    const model = typeof req.body.model === 'string' ? req.body.model : 'claude-fake';
    const eventsOf = (reply: ReplyStep): string[] =>
      messageEvents(buildMessage(reply, model, requestNo), reply.chunkSize).map(encodeEvent);
    // Fault prefixes never include message_stop: the message must stay unfinished.
    const prefix = (reply: ReplyStep, n: number): string[] => {
      const all = eventsOf(reply);
      return all.slice(0, Math.max(0, Math.min(n, all.length - 1)));
    };

    switch (step.kind) {
      case 'reply': {
        if (!stream)
          return sendJson(res, 200, buildMessage(step, model, requestNo), { 'request-id': requestId });
        const events = eventsOf(step);
        if (step.holdAfterEvents !== undefined) {
          const n = Math.max(0, Math.min(step.holdAfterEvents, events.length - 1));
          if (!(await streamEvents(res, requestId, events.slice(0, n)))) return;
          const released = new Promise<void>((resolve) => holds.push(resolve));
          await Promise.race([
            released,
            new Promise((resolve) => closing.signal.addEventListener('abort', resolve)),
          ]);
          if (closing.signal.aborted) return;
          if (await streamEvents(res, requestId, events.slice(n))) res.end();
          return;
        }
        if (await streamEvents(res, requestId, events)) res.end();
        return;
      }
      case 'status': {
        const headers: Record<string, string> = { 'request-id': requestId, ...step.headers };
        if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
        const body =
          step.body ?? errorBody(step.errorType ?? errorTypeForStatus(step.status), step.message, requestId);
        return sendJson(res, step.status, body, headers);
      }
      case 'sse_error': {
        const body = errorBody(step.errorType, step.message, requestId);
        if (!stream)
          return sendJson(res, statusForErrorType(step.errorType), body, { 'request-id': requestId });
        const errorEvent = encodeEvent({ event: 'error', data: body });
        if (await streamEvents(res, requestId, [...prefix(step.reply, step.afterEvents), errorEvent]))
          res.end();
        return;
      }
      case 'cut': {
        if (stream)
          await streamEvents(
            res,
            requestId,
            step.afterStop ? eventsOf(step.reply) : prefix(step.reply, step.afterEvents),
          );
        res.socket?.destroy();
        return;
      }
      case 'hang': {
        if (stream && step.afterEvents !== undefined) {
          await streamEvents(res, requestId, prefix(step.reply, step.afterEvents));
        }
        return; // left open until the client gives up or close() drops it
      }
    }
  }

  function modelObject(id: string): Record<string, unknown> | undefined {
    const m = fake.models[id];
    if (!m) return undefined;
    return { type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z', ...m };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on('error', () => {}); // a client that hangs up mid-answer is normal here
    const rec = record(req, await readBody(req));
    requests.push(rec);
    const isMessages = rec.method === 'POST' && rec.path === '/v1/messages';
    const index = isMessages ? messageCount++ : -1;
    for (const w of waiters.filter((w) => requests.length >= w.count)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(requests[w.count - 1]);
    }

    if (opts.apiKeys) {
      const key = rec.headers['x-api-key'] ?? rec.headers.authorization?.replace(/^Bearer\s+/i, '');
      if (!key || !opts.apiKeys.includes(key)) {
        return sendJson(res, 401, errorBody('authentication_error', 'invalid x-api-key'));
      }
    }
    if (isMessages) {
      const problem = validate ? requestProblem(rec.body) : null;
      if (problem) return sendJson(res, 400, errorBody('invalid_request_error', problem));
      const step = queue.shift() ?? responder?.(rec, index);
      if (!step) {
        const message =
          `fake-anthropic: no scripted step for POST /v1/messages #${index + 1}; ` +
          'enqueue() more steps or set respond() in the test.';
        return sendJson(res, 500, errorBody('api_error', message));
      }
      return serveStep(step, rec, res, index + 1);
    }
    if (rec.method === 'POST' && rec.path === '/v1/messages/count_tokens') {
      return sendJson(res, 200, { input_tokens: Math.ceil(rec.raw.length / 4) });
    }
    if (rec.method === 'GET' && rec.path === '/v1/models') {
      const data = Object.keys(fake.models).map((id) => modelObject(id));
      const ids = Object.keys(fake.models);
      return sendJson(res, 200, {
        data,
        has_more: false,
        first_id: ids[0] ?? null,
        last_id: ids.at(-1) ?? null,
      });
    }
    const model = /^\/v1\/models\/([^/]+)$/.exec(rec.path);
    if (rec.method === 'GET' && model) {
      const id = decodeURIComponent(model[1]);
      const found = modelObject(id);
      return found
        ? sendJson(res, 200, found)
        : sendJson(res, 404, errorBody('not_found_error', `model: ${id}`));
    }
    return sendJson(res, 404, errorBody('not_found_error', `Not found: ${rec.method} ${rec.path}`));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const message = `fake-anthropic failed: ${err instanceof Error ? err.message : String(err)}`;
      sendJson(res, 500, errorBody('api_error', message));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const fake: FakeAnthropic = {
    url: `http://127.0.0.1:${port}`,
    requests,
    get messageRequests() {
      return requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages');
    },
    get pending() {
      return queue.length;
    },
    models: { ...(opts.models ?? {}) },
    release: () => {
      const held = holds;
      holds = [];
      for (const resolve of held) resolve();
    },
    enqueue: (...steps) => {
      queue.push(...steps);
    },
    respond: (fn) => {
      responder = fn;
    },
    waitForRequest: (count) =>
      requests.length >= count
        ? Promise.resolve(requests[count - 1])
        : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () => {
      closing.abort();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

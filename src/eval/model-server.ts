/**
 * The Messages API a case's codey talks to, on 127.0.0.1: in replay it answers each request with
 * the unused reply of the cassette whose recorded digest is the request's (requests are matched by
 * digest, not by arrival, because parallel subagents' requests interleave in any order); a request
 * no recorded digest matches is cassette drift, named against the nearest recording, and refused.
 * In forward mode (`--live`, `--record`) it passes each request to the real endpoint with the real
 * key, which codey itself never holds, and keeps what came back. In update mode it serves the
 * replies without comparing digests, so that new digests can be written after a deliberate change.
 */
import http from 'node:http';
import type { CassetteEntry, RecordedResponse } from './case-file';
import { digestOf, driftOf, type RequestDigest, type Volatile } from './digest';
import { responseOfSse, sseOf } from './sse';

export interface Upstream {
  /** The endpoint's base URL, e.g. `https://api.anthropic.com`. */
  url: string;
  key: string;
}

export interface Exchange {
  digest: RequestDigest;
  response?: RecordedResponse;
  /** In replay and update: the cassette entry it was answered with (0-based). */
  entry?: number;
}

export interface ModelServer {
  url: string;
  exchanges: Exchange[];
  /** The first drift, `request 3: the system prompt differs`. */
  drift?: string;
  /** Anything else wrong with the requests (past the cassette's end, no digest recorded...). */
  problems: string[];
  close(): Promise<void>;
}

type Answer = { status: number; type: string; body: string };
const apiError = (status: number, type: string, message: string): Answer => ({
  status,
  type: 'application/json',
  body: JSON.stringify({ type: 'error', error: { type, message } }),
});

const FORWARD_HEADERS = ['anthropic-version', 'anthropic-beta', 'content-type'];

async function forward(up: Upstream, path: string, req: http.IncomingMessage, raw: Buffer): Promise<Answer> {
  const headers: Record<string, string> = { 'x-api-key': up.key };
  for (const h of FORWARD_HEADERS) if (typeof req.headers[h] === 'string') headers[h] = req.headers[h];
  const res = await fetch(new URL(path, up.url.endsWith('/') ? up.url : `${up.url}/`).href, {
    method: req.method,
    headers,
    ...(req.method === 'POST' && { body: new Uint8Array(raw) }),
  });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? 'text/plain',
    body: await res.text(),
  };
}

/** The text of a request's first message: a conversation's (or a subagent's) brief. */
function firstText(body: Record<string, unknown>): string {
  const first = (body.messages as { content?: unknown }[] | undefined)?.[0]?.content;
  if (typeof first === 'string') return first;
  return Array.isArray(first)
    ? first.map((b: { text?: unknown }) => (typeof b.text === 'string' ? b.text : '')).join('\n')
    : '';
}

const sameDigest = (a: RequestDigest, b: RequestDigest): boolean =>
  a.model === b.model &&
  a.params === b.params &&
  a.system === b.system &&
  a.tools.join('\n') === b.tools.join('\n') &&
  a.messages.join('\n') === b.messages.join('\n');

/** Same conversation (its first message) at the same point (its length): the reply meant for it. */
const sameThread = (a: RequestDigest, b: RequestDigest): boolean =>
  a.messages[0] === b.messages[0] && a.messages.length === b.messages.length;

/**
 * The entry to answer a request with when no recorded digest is its own: a recorded one of the same
 * thread, else a hand-written one whose `match` the first message holds, else the first unused one
 * that has no `match`.
 */
function scriptedPick(
  cassette: readonly CassetteEntry[],
  unused: readonly number[],
  digest: RequestDigest,
  body: Record<string, unknown>,
): number | undefined {
  const first = firstText(body);
  return (
    unused.find((i) => cassette[i].request && sameThread(cassette[i].request, digest)) ??
    unused.find((i) => cassette[i].match !== undefined && first.includes(cassette[i].match!)) ??
    unused.find((i) => cassette[i].match === undefined)
  );
}

/**
 * Start the server. `cassette` for replay (`update`: without comparing digests), `upstream` to
 * forward; `vol` normalizes the digests.
 */
export function startModelServer(o: {
  cassette?: readonly CassetteEntry[];
  upstream?: Upstream;
  update?: boolean;
  vol: Volatile;
}): Promise<ModelServer> {
  const state: ModelServer = { url: '', exchanges: [], problems: [], close: async () => {} };
  const cassette = o.cassette ?? [];
  const unused = cassette.map((_, i) => i);
  let requests = 0;

  const replay = (n: number, body: Record<string, unknown>, digest: RequestDigest): Answer => {
    const exact = o.update
      ? undefined
      : unused.find((i) => cassette[i].request && sameDigest(cassette[i].request, digest));
    let pick = exact;
    if (pick === undefined) {
      const recorded = unused.filter((i) => cassette[i].request);
      if (o.update || recorded.length < unused.length) {
        pick = scriptedPick(cassette, unused, digest, body);
        if (!o.update && pick !== undefined && !cassette[pick].request)
          state.problems.push(`request ${n}: the cassette holds no digest for it (record the case)`);
      } else if (recorded.length) {
        // The nearest recording: the same thread, else the same brief, else the next in order.
        const near =
          recorded.find((i) => sameThread(cassette[i].request!, digest)) ??
          recorded.find((i) => cassette[i].request!.messages[0] === digest.messages[0]) ??
          recorded[0];
        const drift = driftOf(cassette[near].request!, digest, body) ?? 'the request differs';
        state.drift ??= `request ${n}: ${drift}`;
        return apiError(400, 'invalid_request_error', `cassette drift: request ${n}: ${drift}`);
      }
    }
    if (pick === undefined) {
      const message = `request ${n}: the cassette has only ${cassette.length} replies`;
      state.problems.push(message);
      return apiError(400, 'invalid_request_error', message);
    }
    unused.splice(unused.indexOf(pick), 1);
    const { response } = cassette[pick];
    state.exchanges.push({ digest, response, entry: pick });
    return { status: 200, type: 'text/event-stream', body: sseOf(response, digest.model, n) };
  };

  const answer = async (req: http.IncomingMessage, raw: Buffer): Promise<Answer> => {
    const path = (req.url ?? '/').replace(/^\/+/, '');
    const isMessages = req.method === 'POST' && path.split('?')[0] === 'v1/messages';
    // The window and the hosted tools' versions codey reads from the Models API stay the defaults in
    // every mode, so a recording replays the same.
    if (req.method === 'GET' && path.startsWith('v1/models/'))
      return apiError(404, 'not_found_error', 'eval: no Models API (defaults apply)');
    if (!isMessages) {
      if (o.upstream) return forward(o.upstream, path, req, raw);
      state.problems.push(`unexpected request ${req.method} /${path}`);
      return apiError(404, 'not_found_error', `no ${req.method} /${path} in an eval replay`);
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      return apiError(400, 'invalid_request_error', 'the body is not JSON');
    }
    const digest = digestOf(body, o.vol);
    if (!o.upstream) return replay(++requests, body, digest);
    const got = await forward(o.upstream, path, req, raw);
    if (got.status === 200) {
      const response = responseOfSse(got.body);
      if (response) state.exchanges.push({ digest, response });
      else state.problems.push(`request ${state.exchanges.length + 1}: the reply stream did not end`);
    }
    return got;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      answer(req, Buffer.concat(chunks))
        .catch((err: unknown) =>
          apiError(502, 'api_error', `eval: the endpoint failed: ${(err as Error).message}`),
        )
        .then((a) => {
          res.writeHead(a.status, { 'content-type': a.type });
          res.end(a.body);
        })
        .catch(() => res.destroy());
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      state.url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
      state.close = () =>
        new Promise((r) => {
          server.closeAllConnections();
          server.close(() => r());
        });
      resolve(state);
    });
  });
}

// A Messages API on 127.0.0.1 that answers the n-th POST /v1/messages with the n-th recorded turn of
// a case's replay.jsonl, streamed as real SSE (https://docs.anthropic.com/en/api/messages-streaming):
// message_start, ping, content_block_start / content_block_delta... / content_block_stop per block
// (text in a few text_delta pieces, tool input as input_json_delta pieces), message_delta with the
// stop reason and usage, message_stop. Every request body is kept for the replay checks.
import http from 'node:http';

/** Pieces a streamed string is cut into, so the client must join deltas as it does for the real API. */
const PIECES = 3;

/**
 * Read a replay file: one Messages API response per line, `{ content, stop_reason, usage? }`.
 * Blank lines and lines starting with `//` are skipped. tool_use blocks without an id get
 * `toolu_eval_<turn>_<index>`, so the requests can be matched against them.
 * @throws Error naming the line when a line is not JSON or has no content array.
 */
export function parseReplay(text, file = 'replay.jsonl') {
  const turns = [];
  text.split('\n').forEach((line, i) => {
    const t = line.trim();
    if (!t || t.startsWith('//')) return;
    let turn;
    try {
      turn = JSON.parse(t);
    } catch (err) {
      throw new Error(`${file}:${i + 1}: not JSON (${err.message})`);
    }
    if (!Array.isArray(turn.content)) throw new Error(`${file}:${i + 1}: no "content" array`);
    const n = turns.length + 1;
    const content = turn.content.map((b, j) =>
      b.type === 'tool_use' ? { ...b, id: b.id ?? `toolu_eval_${n}_${j}`, input: b.input ?? {} } : b,
    );
    const hasToolUse = content.some((b) => b.type === 'tool_use');
    turns.push({
      content,
      stop_reason: turn.stop_reason ?? (hasToolUse ? 'tool_use' : 'end_turn'),
      usage: { input_tokens: 100, output_tokens: 20, ...turn.usage },
    });
  });
  return turns;
}

/** `text` cut into at most `n` non-empty pieces, never inside a surrogate pair. */
function pieces(text, n = PIECES) {
  const points = Array.from(text);
  if (points.length === 0) return [];
  const size = Math.ceil(points.length / n);
  const out = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
  return out;
}

/** The SSE bytes of one recorded turn answered to a request for `model`. */
export function sseFor(turn, model, requestNo) {
  const ev = (event, data) => `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;
  const { usage } = turn;
  let out = ev('message_start', {
    message: {
      id: `msg_eval_${requestNo}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input_tokens,
        output_tokens: 1,
        cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
        cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
      },
    },
  });
  out += ev('ping', {});
  turn.content.forEach((b, index) => {
    const delta = (d) => (out += ev('content_block_delta', { index, delta: d }));
    switch (b.type) {
      case 'text':
        out += ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
        for (const text of pieces(b.text)) delta({ type: 'text_delta', text });
        break;
      case 'thinking':
        out += ev('content_block_start', {
          index,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        });
        for (const thinking of pieces(b.thinking)) delta({ type: 'thinking_delta', thinking });
        delta({ type: 'signature_delta', signature: b.signature ?? 'sig_eval' });
        break;
      case 'tool_use':
        // As the API does: an empty input at the start, then the JSON text in pieces.
        out += ev('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} },
        });
        delta({ type: 'input_json_delta', partial_json: '' });
        for (const part of pieces(JSON.stringify(b.input)))
          delta({ type: 'input_json_delta', partial_json: part });
        break;
      default:
        out += ev('content_block_start', { index, content_block: b });
    }
    out += ev('content_block_stop', { index });
  });
  out += ev('message_delta', {
    delta: { stop_reason: turn.stop_reason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  out += ev('message_stop', {});
  return out;
}

/**
 * Start the replay server on 127.0.0.1 (a free port). Requests past the end of the replay, bodies that
 * are not JSON, and any other path get an API error body (400 / 404, which the SDK does not retry),
 * and are noted in `problems`.
 * @returns `{ url, requests, problems, close() }`; `requests` holds each POST /v1/messages body, parsed.
 */
export function startReplayServer(turns) {
  const requests = [];
  const problems = [];
  const fail = (res, status, type, message) => {
    problems.push(message);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ type: 'error', error: { type, message } }));
  };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'POST' || path !== '/v1/messages') {
        return fail(res, 404, 'not_found_error', `unexpected request ${req.method} ${req.url}`);
      }
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return fail(res, 400, 'invalid_request_error', `request ${requests.length + 1}: body is not JSON`);
      }
      requests.push(body);
      const n = requests.length;
      const turn = turns[n - 1];
      if (!turn) {
        return fail(
          res,
          400,
          'invalid_request_error',
          `request ${n}: the replay has only ${turns.length} turns (the run asked for more)`,
        );
      }
      if (body.stream !== true) problems.push(`request ${n}: not a streaming request`);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(sseFor(turn, body.model ?? 'replay', n));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        requests,
        problems,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      }),
    );
  });
}

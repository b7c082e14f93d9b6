import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { codey, removeSandbox, sandbox, type Sandbox } from '../support/cli';
import { reply } from '../support/fake-anthropic';
import { buildMessage, encodeEvent, messageEvents } from '../support/sse';

/** How long the SDK waits for the Models API (src/llm/anthropic.ts) before giving up on it. */
const MODELS_TIMEOUT_MS = 5_000;

let server: Server | undefined;
let box: Sandbox | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await removeSandbox(box);
});

/**
 * A Messages API whose answer comes at once and whose Models API (`GET /v1/models/{id}`) never
 * answers; resolves with its URL and the time the Models request arrived (performance.now()).
 */
async function slowModelsApi(): Promise<{ url: string; modelsAskedAt: () => number | undefined }> {
  let asked: number | undefined;
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/v1/models')) {
        asked ??= performance.now();
        return; // held: never answered
      }
      const events = messageEvents(buildMessage(reply.text('the answer'), 'claude-opus-4-8', 1));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(events.map(encodeEvent).join(''));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, modelsAskedAt: () => asked };
}

describe('codey -p exits once its answer is out', () => {
  it('does not wait for the Models API (asked for the context window) after the answer', async () => {
    const api = await slowModelsApi();
    box = await sandbox('repo-empty', api.url);
    const r = await codey(box, ['-p', 'hi']);
    const exitedAt = performance.now();
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('the answer');
    // It was asked (while the answer streamed) and left unanswered: codey ended well before its timeout.
    const asked = api.modelsAskedAt();
    expect(asked).toBeDefined();
    expect(exitedAt - asked!).toBeLessThan(MODELS_TIMEOUT_MS - 1_000);
  });
});

import type { LookupFunction } from 'node:net';
import type Anthropic from '@anthropic-ai/sdk';
import type { SdkClient } from './sdk-client';
import type { Dispatcher } from 'undici';
import { redactor } from '../util/redact';
import { baselineWasmOnly } from '../util/wasm-tier';
import { LlmError, checkRequestSize, classify, isSpendLimit } from './errors';
import { apiRoute, PROXY_ERROR, proxyFetch } from './proxy';
import { Accumulator } from './accumulator';
import { buildRequest } from './request';
import { retryPlan, shownHost, shownUrl, sleep } from './retry';
import type { LlmClient, LlmEvent, LlmRequest } from './types';

export interface AnthropicClientOptions {
  apiKey?: string;
  /** `bearer` (`Authorization: Bearer KEY`, the SDK's default) or `x-api-key` (only that header, for gateways that want it). */
  authHeader: 'x-api-key' | 'bearer';
  /** Default `https://api.anthropic.com`. */
  baseUrl?: string;
  /**
   * Retries of a request that fails before its response starts (408, 409, 429, 5xx, connection
   * errors; see ./retry), each reported as a `retry` event. Default 4.
   */
  maxRetries?: number;
  /** Backoff base for those retries (ms); doubles each attempt, at most 8 s, with jitter. Default 500. */
  retryBaseMs?: number;
  /** Retries of a stream that dies after the 200 (SSE `error` event or a cut). Default 3. */
  maxStreamRetries?: number;
  /** Backoff base for stream retries (ms); doubles each attempt. Default 1000. */
  streamRetryBaseMs?: number;
  /** Per-request timeout (ms). Default 10 minutes. */
  timeoutMs?: number;
  /** Extra headers (e.g. User-Agent). */
  headers?: Record<string, string>;
  /**
   * Environment whose `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY` (or lower-case forms) route the API
   * requests through a proxy (see `apiRoute` in ./proxy); absent: no proxy.
   */
  proxyEnv?: Record<string, string | undefined>;
  /** Resolver for connections made without a proxy (default the OS's); tests map names to 127.0.0.1. */
  lookup?: LookupFunction;
}

/** SSE error types after which a fresh attempt can succeed. */
const RETRYABLE_STREAM_ERRORS = new Set([
  'overloaded_error',
  'api_error',
  'rate_limit_error',
  'timeout_error',
]);

class StreamCut extends Error {}

/**
 * A fetch for the SDK that marks a spend-limit 429 as not retryable (`x-should-retry: false`, which
 * codey's retry rule obeys), so codey stops at once instead of retrying a limit that will not lift. With a
 * `dispatcher` (a proxy), requests go through undici's own fetch, which takes it.
 */
async function spendAwareFetch(dispatcher: Dispatcher | undefined): Promise<typeof fetch> {
  const base: typeof fetch = dispatcher ? await proxyFetch(dispatcher) : fetch;
  return async (input, init) => {
    const res = await base(input, init);
    if (res.status !== 429) return res;
    const text = await res.text();
    const headers = new Headers(res.headers);
    if (isSpendLimit(text)) headers.set('x-should-retry', 'false');
    return new Response(text, { status: res.status, statusText: res.statusText, headers });
  };
}

/** The Messages API through `@anthropic-ai/sdk` (loaded lazily: `--version` must not pay for it). */
export class AnthropicClient implements LlmClient {
  #sdk?: SdkClient;
  readonly #opts: AnthropicClientOptions;

  constructor(opts: AnthropicClientOptions) {
    this.#opts = opts;
  }

  get baseUrl(): string {
    return this.#opts.baseUrl ?? 'https://api.anthropic.com';
  }

  /** Proxy URLs and passwords (never shown), and whether a proxy may carry the requests. */
  #route: { secrets: string[]; proxied: boolean } = { secrets: [], proxied: false };

  async #client(): Promise<SdkClient> {
    if (this.#sdk) return this.#sdk;
    baselineWasmOnly();
    const { SdkClient: Sdk } = await import('./sdk-client');
    const o = this.#opts;
    const route = await apiRoute(this.baseUrl, o.proxyEnv ?? {}, o.lookup);
    this.#route = { secrets: route.secrets, proxied: route.dispatcher !== undefined };
    const xApiKey = o.authHeader === 'x-api-key';
    this.#sdk = new Sdk({
      apiKey: xApiKey ? null : (o.apiKey ?? null),
      authToken: null,
      baseURL: o.baseUrl,
      // codey retries itself (see `stream`), so that every retry is shown.
      maxRetries: 0,
      timeout: o.timeoutMs ?? 600_000,
      defaultHeaders: {
        ...o.headers,
        ...(xApiKey ? { 'x-api-key': o.apiKey ?? '', authorization: null } : {}),
      },
      fetch: await spendAwareFetch(route.dispatcher),
      logLevel: 'off',
    });
    return this.#sdk;
  }

  /** Models API answers by id: asked once per client (the hosted tools and the window both read it). */
  readonly #models = new Map<string, Promise<Record<string, unknown> | undefined>>();

  /**
   * The Models API entry of `id` (`GET /v1/models/{id}`), or undefined when the endpoint does not
   * answer it (gateways, local servers) within 5 s. Asked once per id. Never throws.
   */
  modelInfo(id: string): Promise<Record<string, unknown> | undefined> {
    let info = this.#models.get(id);
    if (!info) {
      info = this.#retrieve(id);
      this.#models.set(id, info);
    }
    return info;
  }

  async #retrieve(id: string): Promise<Record<string, unknown> | undefined> {
    try {
      const client = await this.#client();
      const info = await client.models.retrieve(id, {}, { timeout: 5_000 });
      return info as unknown as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }

  /**
   * Stream one response (see {@link LlmClient.stream}).
   * @throws `RequestTooLargeError` (./errors) before sending anything when the body is over
   *   the API's 32 MB or holds too many images (`checkRequestSize`), or when the endpoint answers 413.
   */
  async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent> {
    const client = await this.#client();
    const body = buildRequest(request);
    // Serialised once, here: the size check measures the same string the SDK sends (on each retry too).
    const json = JSON.stringify(body);
    // Refused here rather than by the API's edge: the person learns why, and nothing is paid for.
    checkRequestSize(body, json);
    const maxStreamRetries = this.#opts.maxStreamRetries ?? 3;
    const maxRetries = this.#opts.maxRetries ?? 4;
    const base = this.#opts.streamRetryBaseMs ?? 1000;
    const ctx = {
      baseUrl: shownUrl(this.baseUrl),
      model: request.model,
      secrets: [this.#opts.apiKey, ...this.#route.secrets],
      hosted: request.hostedTools.map((t) => String(t.type)),
    };
    const wait = async (delayMs: number) => {
      try {
        await sleep(delayMs, signal);
      } catch {
        throw new LlmError('interrupted', 'aborted');
      }
    };
    let cuts = 0;
    let retries = 0;
    for (;;) {
      try {
        yield* this.#once(client, body, json, signal);
        return;
      } catch (err) {
        if (signal.aborted) throw new LlmError('interrupted', 'aborted');
        const midStream = err instanceof StreamCut || isRetryableSseError(err);
        if (!midStream) {
          const plan =
            retries < maxRetries
              ? retryPlan(err, retries + 1, {
                  host: shownHost(this.baseUrl),
                  proxied: this.#route.proxied,
                  baseMs: this.#opts.retryBaseMs ?? 500,
                })
              : undefined;
          if (!plan)
            throw this.#explain(
              classify(err, { ...ctx, tries: retries + 1, proxied: this.#route.proxied }),
              err,
            );
          retries++;
          const redact = redactor(ctx.secrets);
          yield {
            type: 'retry',
            attempt: retries,
            attempts: maxRetries + 1,
            ...plan,
            reason: redact(plan.reason),
          };
          await wait(plan.delayMs);
          continue;
        }
        if (cuts >= maxStreamRetries) {
          throw new LlmError(
            `the response stream from ${ctx.baseUrl} broke ${cuts + 1} times (${describeCut(err)}). Try again in a minute.`,
            'transient',
          );
        }
        const delayMs = base * 2 ** cuts;
        cuts++;
        yield {
          type: 'reset',
          attempt: cuts,
          delayMs,
          reason: `the response was cut off (${describeCut(err)})`,
          attempts: maxStreamRetries + 1,
        };
        await wait(delayMs);
      }
    }
  }

  /**
   * An error on the way through a proxy says so: a refusal by the proxy itself names its status, a
   * connection error what failed; both say which settings to look at.
   */
  #explain(e: LlmError, raw: unknown): LlmError {
    if (!this.#route.proxied) return e;
    const redact = redactor([this.#opts.apiKey, ...this.#route.secrets]);
    const r = raw as { status?: number; error?: { error?: { type?: string; message?: string } } };
    if (r?.error?.error?.type === PROXY_ERROR) {
      return new LlmError(
        redact(
          `the proxy (HTTPS_PROXY / HTTP_PROXY) refused the connection to ${shownUrl(this.baseUrl)}: ${r.error.error.message}. ` +
            (r.status === 407
              ? 'Check the user name and password in the proxy URL.'
              : "Check the proxy's settings, or list the API's host in NO_PROXY."),
        ),
        r.status !== undefined && r.status < 500 ? 'fatal' : 'transient',
        r.status,
      );
    }
    if (e.status !== undefined || e.kind !== 'transient') return e;
    let cause: unknown = raw;
    while ((cause as { cause?: unknown })?.cause) cause = (cause as { cause: unknown }).cause;
    const why =
      cause !== raw && cause instanceof Error
        ? `; the connection failed with "${cause.message.replace(/\.+$/, '')}"`
        : '';
    return new LlmError(
      redact(
        `${e.message} A proxy is set (HTTPS_PROXY / HTTP_PROXY)${why}: check that it is up and lets codey through, or list the API's host in NO_PROXY.`,
      ),
      e.kind,
    );
  }

  async *#once(
    client: SdkClient,
    body: Record<string, unknown>,
    json: string,
    signal: AbortSignal,
  ): AsyncGenerator<LlmEvent> {
    // The SDK reads the params (model, stream, tools) and sends `json` as it is: a string body with a
    // content-type is passed through, not serialised again.
    const stream = (await client.messages.create(body as unknown as Anthropic.MessageCreateParamsStreaming, {
      signal,
      body: json,
      headers: { 'content-type': 'application/json' },
    })) as AsyncIterable<Anthropic.RawMessageStreamEvent>;
    const acc = new Accumulator();
    try {
      for await (const ev of stream) {
        const out = acc.push(ev);
        if (out) yield out;
        if (acc.stopped) break; // nothing after message_stop belongs to the response
      }
    } catch (err) {
      if (signal.aborted) throw err;
      // A response whose message_stop arrived is complete: a cut after it is not worth a second request.
      if (!acc.stopped) {
        // A network error after the 200 is a cut; an SSE error event arrives as an APIError without status.
        if ((err as { status?: number }).status === undefined && !(err as { error?: unknown }).error) {
          throw new StreamCut(String((err as Error).message ?? err));
        }
        throw err;
      }
    }
    if (!acc.stopped) throw new StreamCut('the connection closed before message_stop');
    yield { type: 'response', response: acc.response() };
  }
}

function isRetryableSseError(err: unknown): boolean {
  const e = err as { status?: number; error?: { error?: { type?: string } } };
  return e?.status === undefined && RETRYABLE_STREAM_ERRORS.has(e?.error?.error?.type ?? '');
}

function describeCut(err: unknown): string {
  if (err instanceof StreamCut) return `stream cut: ${err.message}`;
  const t = (err as { error?: { error?: { type?: string } } }).error?.error?.type;
  return t ? `SSE error event: ${t}` : String(err);
}

import { redactor } from '../util/redact';
import { connectionCode } from './retry';
import { MAX_REQUEST_IMAGES } from '../util/images';
import { imagesIn } from './blocks';

/**
 * Errors of the LLM layer. `message` is for the person (what to do next) and never holds a key.
 */
export class LlmError extends Error {
  override name = 'LlmError';
  constructor(
    message: string,
    /** `fatal`: retrying cannot help (401, 403, 400, spend limit); `transient`: retries ran out; `aborted`. */
    readonly kind: 'fatal' | 'transient' | 'aborted',
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Is this 429 body a spend or credit limit (no use retrying) rather than a rate limit? */
export function isSpendLimit(body: string): boolean {
  return /spend|credit balance|billing|usage limit|quota/i.test(body);
}

interface ApiErrorLike {
  status?: number;
  message?: string;
  error?: { error?: { type?: string; message?: string } };
}

/**
 * Turn an SDK or network error into an {@link LlmError} with a next step for the person. `tries`:
 * how many times the request was sent (retries included), said when retries ran out. `proxied`: the
 * request went through a proxy (the caller adds what to check about it).
 */
export function classify(
  err: unknown,
  ctx: {
    baseUrl: string;
    model: string;
    secrets: (string | undefined)[];
    hosted?: string[];
    tries?: number;
    proxied?: boolean;
  },
): LlmError {
  const e = err as ApiErrorLike & Error;
  const apiMsg = redactor(ctx.secrets)(e?.error?.error?.message ?? e?.message ?? String(err)).replace(
    /\.+$/,
    '',
  );
  const status = typeof e?.status === 'number' ? e.status : undefined;
  const where = ctx.baseUrl;
  const tries = ctx.tries !== undefined && ctx.tries > 1 ? ` after ${ctx.tries} tries` : '';
  switch (status) {
    case 401:
      return new LlmError(
        `the API key was refused by ${where} (401: ${apiMsg}). Check ANTHROPIC_API_KEY (or api_key in your config), or run \`codey setup\`.`,
        'fatal',
        401,
      );
    case 403:
      return new LlmError(
        `${where} refused the request (403: ${apiMsg}). The key may lack access to ${ctx.model}; try another --model or check the key's permissions.`,
        'fatal',
        403,
      );
    case 404:
      return new LlmError(
        `${where} answered 404 (${apiMsg}). Check the model id (${ctx.model}, set with --model) and the base URL.`,
        'fatal',
        404,
      );
    case 400:
      if (isPromptTooLong(apiMsg)) return contextOverflow(apiMsg, where);
      if (ctx.hosted?.length && /tool|web_search|web_fetch|server/i.test(apiMsg)) {
        return new LlmError(
          `${where} rejected Anthropic's hosted web tools (${ctx.hosted.join(', ')}): ${apiMsg}. Hosted search works only against Anthropic's own API; run \`codey setup\` to pick a local search provider, or set web_provider to none.`,
          'fatal',
          400,
        );
      }
      return new LlmError(
        `${where} rejected the request (400: ${apiMsg}). Check the model (${ctx.model}) and the max_tokens, effort and thinking settings for it; --verbose shows what is in force.`,
        'fatal',
        400,
      );
    case 413:
      return new RequestTooLargeError(
        `${where} refused the request as too large (413: ${apiMsg}). Send less at once (a shorter message, less pasted text), or start a new conversation (/clear).`,
        413,
      );
    case 422:
      return new LlmError(`${where} rejected the request (${status}: ${apiMsg}).`, 'fatal', status);
    case 429:
      return isSpendLimit(apiMsg)
        ? new LlmError(
            `${where} refused: spend or credit limit reached (${apiMsg}). Raise the limit in your account, then try again.`,
            'fatal',
            429,
          )
        : new LlmError(
            `${where} is rate limiting (429) and retries ran out${tries}. Wait a minute, then try again; if it keeps happening, check your account's rate limits.`,
            'transient',
            429,
          );
    default:
      if (status !== undefined && status >= 500) {
        const what = status === 529 ? 'is overloaded' : 'failed';
        return new LlmError(
          `${where} ${what} (${status}: ${apiMsg}) and retries ran out${tries}. Try again in a minute.`,
          'transient',
          status,
        );
      }
      if (status === undefined) {
        const code = connectionCode(err);
        const why = code ?? (e?.name === 'APIConnectionTimeoutError' ? 'timeout' : apiMsg);
        const next = ctx.proxied
          ? ''
          : ' Check the network and the base URL (--base-url, ANTHROPIC_BASE_URL or base_url), then try again; behind a proxy, set HTTPS_PROXY.';
        return new LlmError(`cannot reach ${where} (${why})${tries}.${next}`, 'transient');
      }
      return new LlmError(
        `${where} answered ${status} (${apiMsg})${tries}. Check the base URL and the key, then try again.`,
        'transient',
        status,
      );
  }
}

/**
 * Largest request body the Messages API takes, in bytes: 32 MB ("Request size limits" in Anthropic's
 * API docs; a larger one gets a 413 `request_too_large` from the edge).
 */
const MAX_REQUEST_BYTES = 32_000_000;

/**
 * A request too large to send: refused before sending (over {@link MAX_REQUEST_BYTES}) or answered
 * 413 by the endpoint. Retrying the same conversation cannot help; sending less can.
 */
export class RequestTooLargeError extends LlmError {
  override name = 'RequestTooLargeError';
  constructor(message: string, status?: number) {
    super(message, 'fatal', status);
  }
}

/**
 * The refusal of a request body of `bytes` that is over {@link MAX_REQUEST_BYTES}, or that holds more
 * than {@link MAX_REQUEST_IMAGES} images; `images` counts its image blocks and their base64 bytes.
 */
function requestTooLarge(
  bytes: number,
  images: { count: number; bytes: number } = { count: 0, bytes: 0 },
): RequestTooLargeError {
  const mb = (n: number) => `${(n / 1_000_000).toFixed(1)} MB`;
  const ofImages = images.count
    ? ` (${images.count} image${images.count === 1 ? '' : 's'}: ${mb(images.bytes)})`
    : '';
  const next = images.count
    ? 'Send fewer or smaller images, compact the conversation (/compact leaves old images out), or start a new conversation (/clear).'
    : 'Send less at once (a shorter message, less pasted text), or start a new conversation (/clear).';
  if (images.count > MAX_REQUEST_IMAGES)
    return new RequestTooLargeError(
      `the request would hold ${images.count} images, over the ${MAX_REQUEST_IMAGES} the Messages API takes, so it was not sent. ${next}`,
    );
  return new RequestTooLargeError(
    `the request would be ${mb(bytes)}${ofImages}, over the ${mb(MAX_REQUEST_BYTES)} the Messages API takes, so it was not sent. ${next}`,
  );
}

/**
 * Refuse a request body before it is sent when the Messages API would: over {@link MAX_REQUEST_BYTES}
 * (images count by their base64) or over {@link MAX_REQUEST_IMAGES} images. `json` is the body as it
 * will be sent (`JSON.stringify(body)`), so that a long conversation is serialised once per request.
 * @throws RequestTooLargeError saying which limit, and what to send instead.
 */
export function checkRequestSize(body: Record<string, unknown>, json: string): void {
  const bytes = Buffer.byteLength(json);
  const found = Array.isArray(body.messages) ? imagesIn(body.messages as { content: unknown }[]) : [];
  const images = { count: found.length, bytes: found.reduce((n, s) => n + s.data.length, 0) };
  if (bytes > MAX_REQUEST_BYTES || images.count > MAX_REQUEST_IMAGES) throw requestTooLarge(bytes, images);
}

/**
 * The endpoint's words for a prompt over the model's input window: the Messages API's 400
 * `invalid_request_error` "prompt is too long: 215000 tokens > 200000 maximum", and the older
 * "input length and `max_tokens` exceed context limit: 198000 + 8192 > 200000".
 */
function isPromptTooLong(apiMessage: string): boolean {
  return /prompt is too long|exceeds? (the )?context (limit|window)/i.test(apiMessage);
}

/**
 * The prompt did not fit the model's input window (a 400 "prompt is too long", or a response that
 * stopped with `model_context_window_exceeded`). Compacting the conversation can help; sending it
 * again as it is cannot.
 */
export class ContextOverflowError extends LlmError {
  override name = 'ContextOverflowError';
  constructor(
    message: string,
    /** Tokens of the refused prompt when the endpoint said (`215000 tokens > 200000`). */
    readonly tokens?: number,
    /** The limit it named (tokens). */
    readonly limit?: number,
  ) {
    super(message, 'fatal', 400);
  }
}

function contextOverflow(apiMsg: string, where: string): ContextOverflowError {
  const figures = /(\d+)\s*tokens?\s*>\s*(\d+)/i.exec(apiMsg);
  return new ContextOverflowError(
    `${where} refused the request: the conversation is longer than the model's context window (400: ${apiMsg}).`,
    figures ? Number(figures[1]) : undefined,
    figures ? Number(figures[2]) : undefined,
  );
}

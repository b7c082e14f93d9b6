/**
 * Compaction (DESIGN.md "Agent loop"): when the conversation fills the model's window, the same
 * model writes a handoff summary of it, and the conversation goes on from the summary plus the newest
 * messages of the turn in progress. The summary request is the conversation as it stands plus one
 * request for the summary (./compaction-prompt.ts), with the same system prompt and tools, so it
 * reads its prefix from the prompt cache.
 */
import { DEFAULT_CONTEXT_WINDOW } from '../llm/context-window';
import { ContextOverflowError, LlmError } from '../llm/errors';
import type { ContentBlockParam, LlmResponse, MessageParam } from '../llm/types';
import { LEFT_OUT, summaryHandoff, summaryRequest } from './compaction-prompt';
import { Conversation } from './conversation';
import { retryEvent, type CompactionTrigger } from './events';
import type { Agent, ContextSettings } from './agent';
import { countUsage, promptTokens, requestFor } from './request';
import { beforeCompaction } from './turn-hooks';
import { blocksOf } from '../llm/blocks';
import { base64ImageTokens } from '../util/images';

/** Default `compact_at`: compact once the last request used more than 80% of the window. */
const DEFAULT_COMPACT_AT = 0.8;

/** A 200,000-token window and the default `compact_at`: what an agent gets when nothing is said. */
export const defaultContext = (): ContextSettings => ({
  window: async () => DEFAULT_CONTEXT_WINDOW,
  compactAt: DEFAULT_COMPACT_AT,
});

/** Share of the window that the kept newest messages may take after a compaction. */
const KEEP_SHARE = 0.25;
/** Share of the endpoint's limit that a summary request is cut down to after it overflowed. */
const FIT_SHARE = 0.85;
/**
 * Below this many tokens of messages (counted at CHARS_PER_TOKEN) a compaction goes ahead even when
 * the summary is not smaller: there is too little to keep for the difference to matter.
 */
const SHRINK_FLOOR_TOKENS = 1_000;
/** Most summary requests in one compaction: the first, then retries with fewer messages. */
const MAX_SUMMARY_ATTEMPTS = 4;
/** Characters per token assumed until a request reports usage (English and code average about 4). */
const CHARS_PER_TOKEN = 4;

export interface CompactOptions {
  trigger: CompactionTrigger;
  /** What the person asked to keep in focus (`/compact FOCUS`). */
  focus?: string;
  /**
   * Index of the first message of the turn in progress: its newest messages that fit are kept after
   * the summary (always the latest user message, with the tool calls its results answer). Absent
   * (between turns): only the summary is kept.
   */
  turnStart?: number;
  /** Tokens of the prompt now, when known better than `conversation.contextTokens` (a refusal named them). */
  tokensBefore?: number;
}

/** How a compaction went; on failure the conversation is as it was. Tokens. */
export type CompactResult =
  { ok: true; tokensBefore: number; tokensAfter: number } | { ok: false; aborted: boolean; error: string };

const hasToolResult = (m: MessageParam): boolean =>
  Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result');

/** A message a kept tail may begin with: an assistant message, or a user message answering nothing. */
const startable = (m: MessageParam): boolean => m.role === 'assistant' || !hasToolResult(m);

/** A stopped response that did not fit the window (the API's `model_context_window_exceeded`). */
export const isOverflowStop = (r: LlmResponse): boolean => r.stop_reason === 'model_context_window_exceeded';

/** Did the last request use more than `compact_at` of the window? */
export async function needsCompaction({ conversation, spec }: Agent): Promise<boolean> {
  const used = conversation.contextTokens;
  if (used === undefined || conversation.length === 0) return false;
  return used > spec.context.compactAt * (await spec.context.window(spec.model));
}

/**
 * Where the kept tail of a compacted conversation begins (the `count` for `replacePrefix`): the
 * earliest message of the turn in progress from which the rest `fits`, at a message that may begin a
 * tail; at the latest, the newest user message, or the assistant message whose tool calls it answers.
 * Without `turnStart`, or when the turn has no message, nothing is kept (`messages.length`). Never 0.
 */
export function keptFrom(
  messages: readonly MessageParam[],
  turnStart: number | undefined,
  fits: (from: number) => boolean,
): number {
  const n = messages.length;
  if (turnStart === undefined || turnStart >= n) return n;
  const last = messages[n - 1];
  const minimal = last.role === 'user' && hasToolResult(last) ? n - 2 : n - 1;
  for (let i = Math.max(turnStart, 1); i < minimal; i++) if (startable(messages[i]) && fits(i)) return i;
  return Math.max(minimal, 1);
}

/**
 * Where a summary request that overflowed may start instead: the earliest turn (a user message that
 * answers no tool call) after `from` from which the rest `fits`; failing that, the earliest assistant
 * message after `from` from which it does. Undefined when nothing fits.
 */
export function fitFrom(
  messages: readonly MessageParam[],
  from: number,
  fits: (from: number) => boolean,
): number | undefined {
  const after = [...messages.keys()].filter((i) => i > from);
  const turnStarts = after.filter((i) => messages[i].role === 'user' && startable(messages[i]));
  const assistants = after.filter((i) => messages[i].role === 'assistant');
  return turnStarts.find(fits) ?? assistants.find(fits);
}

/** `messages` from `from` on, starting with a user message that says the start was left out. */
export function leftOut(messages: readonly MessageParam[], from: number): MessageParam[] {
  const note: ContentBlockParam = { type: 'text', text: LEFT_OUT };
  const first = messages[from];
  if (first.role === 'assistant') return [{ role: 'user', content: [note] }, ...messages.slice(from)];
  return [{ role: 'user', content: [note, ...blocksOf(first.content)] }, ...messages.slice(from + 1)];
}

/** What stands in the summary request for an image the model saw earlier. */
export const IMAGE_LEFT_OUT = '[an image was here; it is left out of the summary request]';

/**
 * `messages` with each image block (in user content and in tool_results) replaced by a text block
 * saying it was there: a summary needs the words about an image, and 20 screenshots would fill the
 * request. Messages without images are the same objects.
 */
function withoutImages(messages: readonly MessageParam[]): MessageParam[] {
  const strip = <T extends { type: string }>(blocks: readonly T[]): T[] | undefined => {
    let changed = false;
    const out = blocks.map((b) => {
      if (b.type === 'image') {
        changed = true;
        return { type: 'text', text: IMAGE_LEFT_OUT } as unknown as T;
      }
      const inner = (b as { content?: unknown }).content;
      if (b.type === 'tool_result' && Array.isArray(inner)) {
        const stripped = strip(inner as { type: string }[]);
        if (stripped) {
          changed = true;
          return { ...b, content: stripped };
        }
      }
      return b;
    });
    return changed ? out : undefined;
  };
  return messages.map((m) => {
    if (typeof m.content === 'string') return m;
    const stripped = strip(m.content);
    return stripped ? ({ ...m, content: stripped } as MessageParam) : m;
  });
}

/**
 * Characters `value` (messages, a request) stands for, with each base64 image counted as the tokens
 * it costs the model ({@link CHARS_PER_TOKEN} characters a token) rather than the length of its data.
 */
function weightOf(value: unknown): number {
  let images = 0;
  const json = JSON.stringify(value, function (this: unknown, key, v: unknown) {
    const s = v as { type?: unknown; media_type?: unknown; data?: unknown } | null;
    if (
      key === 'source' &&
      s?.type === 'base64' &&
      typeof s.data === 'string' &&
      typeof s.media_type === 'string'
    ) {
      images += base64ImageTokens(s.media_type, s.data) * CHARS_PER_TOKEN;
      return { type: 'base64', media_type: s.media_type };
    }
    return v;
  });
  return (json?.length ?? 0) + images;
}

/** `messages` with the request for a summary as the last user message (open tool calls answered first). */
export function summaryMessages(messages: readonly MessageParam[], focus?: string): readonly MessageParam[] {
  const c = Conversation.fromJSON({ version: 1, messages: withoutImages(messages) });
  c.appendUser(summaryRequest(focus));
  return c.messages;
}

/** Stream one response for `messages` without showing it; retries of a cut stream are reported. */
async function collect(
  agent: Agent,
  messages: readonly MessageParam[],
  signal: AbortSignal,
): Promise<LlmResponse> {
  for await (const ev of agent.spec.llm.stream(requestFor(agent, messages), signal)) {
    if (ev.type === 'reset' || ev.type === 'retry') agent.spec.emit(retryEvent(ev));
    if (ev.type === 'response') return ev.response;
  }
  throw new LlmError('the model stream ended without a response', 'transient');
}

const textOf = (r: LlmResponse): string =>
  r.content
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n')
    .trim();

/**
 * Compact `agent.conversation` (see the file's comment). A summary request that itself overflows leaves
 * out the oldest whole turns until it fits, and says so in a notice. Emits `compaction_start`, then
 * `compaction` on success; the summary request's usage goes into the totals. Never rejects: on
 * failure (aborted, the API failed, no summary, a summary answer that stopped for any reason but
 * `end_turn`) the conversation is left as it was.
 */
export async function compact(
  agent: Agent,
  signal: AbortSignal,
  opts: CompactOptions,
): Promise<CompactResult> {
  const { conversation } = agent;
  const fail = (error: string): CompactResult => ({ ok: false, aborted: false, error });
  const messages = conversation.messages;
  if (messages.length === 0) return fail('the conversation is empty');
  await beforeCompaction(agent, opts.trigger, opts.focus, signal);
  const window = await agent.spec.context.window(agent.spec.model);
  const chars = (ms: readonly MessageParam[]) => weightOf(requestFor(agent, ms));
  const before =
    opts.tokensBefore ?? conversation.contextTokens ?? Math.ceil(chars(messages) / CHARS_PER_TOKEN);
  let perChar = before / chars(messages);
  agent.spec.emit({ type: 'compaction_start', trigger: opts.trigger, tokens: before, window });

  // Characters from each message to the end, and of a request with no messages (system and tools).
  const fromChars: number[] = [];
  for (let i = messages.length - 1, sum = 0; i >= 0; i--) fromChars[i] = sum += weightOf(messages[i]);
  const overhead = chars([]);
  const tokensFrom = (i: number) => perChar * (overhead + (fromChars[i] ?? 0));

  let from = 0;
  let summary = '';
  for (let attempt = 1; ; attempt++) {
    const asked = summaryMessages(from === 0 ? messages : leftOut(messages, from), opts.focus);
    let response: LlmResponse | undefined;
    let refused: ContextOverflowError | undefined;
    try {
      response = await collect(agent, asked, signal);
    } catch (err) {
      if (signal.aborted || (err instanceof LlmError && err.kind === 'aborted'))
        return { ok: false, aborted: true, error: 'interrupted' };
      if (!(err instanceof ContextOverflowError))
        return fail(err instanceof Error ? err.message : String(err));
      refused = err;
    }
    if (response) {
      countUsage(agent, response.usage);
      if (!isOverflowStop(response)) {
        // Only a finished answer is a summary: one cut by max_tokens or a refusal ("I can't…")
        // would replace the conversation with a fragment.
        if (response.stop_reason !== 'end_turn')
          return fail(
            `the summary answer stopped for ${response.stop_reason ?? 'no reason'} instead of ending, so it is not a summary; the conversation is kept as it was`,
          );
        summary = textOf(response);
        break;
      }
    }
    if (attempt >= MAX_SUMMARY_ATTEMPTS)
      return fail(
        'the summary request did not fit the context window even with the oldest messages left out',
      );
    // Calibrate on what the refusal said, then leave out the oldest whole turns until the rest fits.
    const tokens = refused?.tokens ?? (response ? promptTokens(response.usage) : undefined);
    if (tokens) perChar = tokens / chars(asked);
    const limit = (refused?.limit ?? window) * FIT_SHARE;
    const next = fitFrom(messages, from, (i) => tokensFrom(i) <= limit);
    if (next === undefined)
      return fail(
        'the summary request did not fit the context window, and the newest messages alone do not fit it either',
      );
    from = next;
  }
  if (summary === '') return fail('the model answered the summary request without any text');
  if (conversation.length !== messages.length || conversation.messages.at(-1) !== messages.at(-1))
    return fail('the conversation changed while it was being summarised');

  const cut = keptFrom(
    messages,
    opts.turnStart,
    (i) => tokensFrom(i) - perChar * overhead <= window * KEEP_SHARE,
  );
  const head = summaryHandoff(summary);
  // What the compacted conversation would weigh, judged the same way as `before`.
  const estimate = Math.round(
    perChar * (overhead + (fromChars[cut] ?? 0) + weightOf({ type: 'text', text: head })),
  );
  if (estimate >= before && (fromChars[0] ?? 0) >= SHRINK_FLOOR_TOKENS * CHARS_PER_TOKEN)
    return fail(
      `the summary would not make the conversation smaller (about ${before} tokens now, ${estimate} after), so the conversation is kept as it was`,
    );
  const replaced = conversation.replacePrefix(cut, head);
  const after = Math.round(perChar * chars(conversation.messages));
  conversation.contextTokens = after;
  if (from > 0)
    agent.spec.emit({
      type: 'notice',
      level: 'warn',
      message: `the conversation was too long to summarise whole: its oldest ${from} message${from === 1 ? '' : 's'} were left out of the summary`,
    });
  agent.spec.emit({
    type: 'compaction',
    trigger: opts.trigger,
    tokensBefore: before,
    tokensAfter: after,
    window,
    replaced,
    summary: head,
    droppedMessages: from,
    ...(opts.focus && { focus: opts.focus }),
  });
  return { ok: true, tokensBefore: before, tokensAfter: after };
}

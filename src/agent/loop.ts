import type { ContentBlock, ContentBlockParam, LlmResponse } from '../llm/types';
import { ContextOverflowError, LlmError, RequestTooLargeError } from '../llm/errors';
import { redactingStream, type RedactingStream } from '../util/redact';
import type { Agent } from './agent';
import { compact, isOverflowStop, needsCompaction } from './compaction';
import type { Conversation } from './conversation';
import { notRun, type ToolUse } from './dispatch';
import { retryEvent, type CompactionTrigger, type RefusalDetails, type TurnEndReason } from './events';
import { countUsage, promptTokens, requestFor } from './request';
import { runTools } from './run-tools';
import { serverToolEvents } from './server-tools';
import { goOnAfterStop, MAX_STOP_BLOCKS, submittedPrompt } from './turn-hooks';

/** How a user turn ended. */
export interface TurnResult {
  reason: TurnEndReason;
  stopReason: string | null;
  /** The final assistant text: the text blocks of the last assistant message (a pause_turn continuation extends it). */
  text: string;
  /** Model requests made in this turn. */
  requests: number;
  /** Set when reason is `error`; with `hook_stop`, the hook's `stopReason`. */
  error?: string;
  /** With reason `refusal`, when the API explained it (`stop_details`). */
  refusal?: RefusalDetails;
}

/** The turn's end when the prompt still does not fit after a compaction. */
const STILL_TOO_LONG =
  "the conversation is still too long for the model's context window after compacting it, so the turn stopped. " +
  'The newest message or tool output may be too large by itself: send less at once, or start a new conversation (/clear in the session, a new codey -p).';

const MAX_TOKENS_CUT =
  'Not run: your response was cut at max_tokens before this call was complete. Retry with a smaller input, e.g. write the file in parts.';

/**
 * Run one user turn (DESIGN.md "The loop"): add `prompt` to `agent.conversation`, then stream, run the
 * tools and add their results until the model ends its turn, a limit is hit, `signal` aborts, or the
 * API fails for good. The conversation keeps its invariants throughout, so an interrupted or failed
 * turn leaves one the API accepts. Resolves with how the turn ended; never rejects.
 */
export async function runTurn(
  agent: Agent,
  prompt: string | ContentBlockParam[],
  signal: AbortSignal,
): Promise<TurnResult> {
  const { conversation } = agent;
  const { emit, limits } = agent.spec;
  const submitted = await submittedPrompt(agent, prompt, signal);
  if ('refused' in submitted) {
    emit({ type: 'error', message: submitted.refused });
    emit({ type: 'turn_end', reason: 'error', stopReason: null, text: '', requests: 0 });
    return { reason: 'error', stopReason: null, text: '', requests: 0, error: submitted.refused };
  }
  const takeBack = conversation.checkpoint();
  // The person spoke: untrusted text that came before is theirs to judge (src/approval/taint.ts).
  if (agent.spec.depth === 0) agent.spec.policy.taint.newTurn();
  conversation.appendUser(submitted.prompt);
  let requests = 0;
  // Times Stop hooks sent the model back to work in this turn.
  let stopBlocks = 0;
  // The first message of this turn: after a compaction, the kept part of the turn starts at 0.
  let turnStart = Math.max(conversation.length - 1, 0);
  // Set by a compaction, cleared by the next response: an overflow right after one ends the turn.
  let compacted = false;
  // At most one automatic compaction per turn (an overflow still gets its own), whatever the settings.
  let autoTried = false;
  let pauses = 0;
  let pausedBefore = false;
  let text = '';
  const finish = (
    reason: TurnEndReason,
    stopReason: string | null,
    error?: string,
    refusal?: RefusalDetails,
  ): TurnResult => {
    const more = refusal ? { refusal } : {};
    emit({ type: 'turn_end', reason, stopReason, text, requests, ...more });
    return { reason, stopReason, text, requests, error, ...more };
  };
  /** End the turn on an error; `tooLong`: the request did not fit, so the prompt may be taken back. */
  const failed = (err: unknown, tooLong = err instanceof RequestTooLargeError): TurnResult => {
    let message = err instanceof Error ? err.message : String(err);
    if (tooLong && requests === 1) {
      // The prompt made the request too large: without it the conversation can go on.
      takeBack();
      message += ' Your message was taken back: the conversation is as it was before it.';
    }
    emit({ type: 'error', message });
    return finish('error', null, message);
  };
  if (conversation.messages.at(-1)?.role !== 'user') {
    const message = 'nothing to send: the prompt is empty';
    emit({ type: 'error', message });
    return finish('error', null, message);
  }

  /** Compact, keeping what fits of this turn; on success the whole conversation is this turn. */
  const compactNow = async (trigger: CompactionTrigger, tokensBefore?: number) => {
    const r = await compact(agent, signal, { trigger, turnStart, tokensBefore });
    if (r.ok) {
      turnStart = 0;
      compacted = true;
    }
    return r;
  };

  for (;;) {
    if (signal.aborted) return finish('interrupted', null);
    if (!compacted && !autoTried && (await needsCompaction(agent))) {
      autoTried = true;
      const r = await compactNow('auto');
      if (!r.ok && r.aborted) return finish('interrupted', null);
      if (!r.ok) {
        emit({
          type: 'notice',
          level: 'warn',
          message: `could not compact the conversation (${r.error}); going on without`,
        });
      }
    }
    if (requests >= limits.maxTurns) {
      emit({
        type: 'notice',
        level: 'warn',
        message: `stopped after ${limits.maxTurns} model requests (--max-turns)`,
      });
      return finish('max_turns', null);
    }
    requests++;
    emit({
      type: 'request_start',
      request: requests,
      model: agent.spec.model,
      ...(pausedBefore ? { continues: true } : {}),
    });

    let response: LlmResponse | undefined;
    let overflow: { tokens?: number; message: string } | undefined;
    const partial = new Map<number, string>();
    try {
      response = await streamResponse(conversation, agent, signal, partial);
      if (isOverflowStop(response)) {
        // Cut at the window's end: nothing of it is kept, the conversation is compacted and sent again.
        countUsage(agent, response.usage);
        overflow = {
          tokens: promptTokens(response.usage),
          message:
            "the response stopped at the end of the model's context window (model_context_window_exceeded).",
        };
      }
    } catch (err) {
      if (signal.aborted || (err instanceof LlmError && err.kind === 'aborted')) {
        // What the person saw of the answer stays in the conversation, marked as interrupted.
        const texts = [...partial.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
        conversation.appendInterrupted(texts);
        if (texts.length > 0) text = texts.join('');
        return finish('interrupted', null);
      }
      if (err instanceof ContextOverflowError) overflow = { tokens: err.tokens, message: err.message };
      else return failed(err);
    }
    if (overflow) {
      if (compacted) {
        emit({ type: 'error', message: STILL_TOO_LONG });
        return finish('error', null, STILL_TOO_LONG);
      }
      const r = await compactNow('overflow', overflow.tokens);
      if (!r.ok && r.aborted) return finish('interrupted', null);
      if (!r.ok)
        return failed(
          new Error(`${overflow.message} Compacting the conversation failed too: ${r.error}.`),
          true,
        );
      continue;
    }
    if (!response) continue;
    compacted = false;

    const { context } = agent.spec;
    // A response that ends the turn (no tool call, no pause) does not wait for the Models API, asked
    // meanwhile, to learn the window: its usage goes without the context share when it is not known.
    const ends =
      response.stop_reason !== 'pause_turn' && !response.content.some((b) => b.type === 'tool_use');
    const window =
      ends && context.known ? context.known(agent.spec.model) : await context.window(agent.spec.model);
    conversation.contextTokens = promptTokens(response.usage);
    countUsage(
      agent,
      response.usage,
      window === undefined ? undefined : { tokens: conversation.contextTokens, window },
    );
    conversation.appendAssistant(response.content);
    pausedBefore = response.stop_reason === 'pause_turn';
    // The answer is the whole assistant message: after a pause, the paused part and the continuation.
    const last = conversation.messages.at(-1);
    text =
      last?.role === 'assistant' && Array.isArray(last.content)
        ? last.content
            .filter((b): b is Extract<ContentBlockParam, { type: 'text' }> => b.type === 'text')
            .map((b) => b.text)
            .join('')
        : '';

    const uses: ToolUse[] = response.content
      .filter((b): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use')
      .map((b) => ({ id: b.id, name: b.name, input: b.input }));

    if (response.stop_reason === 'max_tokens') {
      if (uses.length) conversation.appendUser(uses.map((u) => notRun(u, MAX_TOKENS_CUT)));
      emit({
        type: 'notice',
        level: 'warn',
        message: `the response hit max_tokens (${limits.maxTokens}); raise max_tokens or ask for less at a time`,
      });
      return finish('max_tokens', 'max_tokens');
    }
    if (uses.length > 0) {
      let hookStop: string | undefined;
      conversation.appendUser(await runTools(uses, agent, signal, (reason) => (hookStop = reason)));
      if (signal.aborted) return finish('interrupted', response.stop_reason);
      if (hookStop !== undefined) {
        emit({ type: 'notice', level: 'warn', message: `a hook stopped the turn: ${hookStop}` });
        return finish('hook_stop', response.stop_reason, hookStop);
      }
      continue;
    }
    switch (response.stop_reason) {
      case 'pause_turn':
        // The server paused a long-running turn; sending the conversation back lets it continue, and
        // the conversation adds the continuation to the paused message.
        if (++pauses > (limits.maxPauseTurns ?? 10)) {
          emit({
            type: 'notice',
            level: 'warn',
            message: 'the server paused the turn too many times; stopping',
          });
          return finish('error', 'pause_turn', 'too many pause_turn continuations');
        }
        continue;
      case 'refusal': {
        const d = response.stop_details;
        const details = d ? { category: d.category, explanation: d.explanation } : undefined;
        return finish('refusal', 'refusal', undefined, details);
      }
      default: {
        const more =
          stopBlocks < MAX_STOP_BLOCKS && (await goOnAfterStop(agent, text, stopBlocks > 0, signal));
        if (!more) return finish('end_turn', response.stop_reason);
        stopBlocks++;
        conversation.appendUser(more);
        continue;
      }
    }
  }
}

/**
 * Stream one response for the conversation as it is, passing deltas and blocks on as events.
 * `partial` collects the text streamed so far by block index (a retry empties it), for an interrupt.
 */
async function streamResponse(
  conversation: Conversation,
  agent: Agent,
  signal: AbortSignal,
  partial: Map<number, string>,
): Promise<LlmResponse> {
  const { emit } = agent.spec;
  // Each text or thinking block's deltas pass a redacting stream (key shapes on), flushed at the
  // block's end: a key split over several deltas never reaches an event whole or in pieces.
  const open = new Map<number, { kind: 'text_delta' | 'thinking_delta'; stream: RedactingStream }>();
  const flush = (index: number) => {
    const held = open.get(index);
    if (!held) return;
    open.delete(index);
    const rest = held.stream.end();
    if (rest) emit({ type: held.kind, text: rest });
  };
  const flushAll = () => {
    for (const index of [...open.keys()]) flush(index);
  };
  let answered = false;
  for await (const ev of agent.spec.llm.stream(requestFor(agent, conversation.messages), signal)) {
    if (!answered) {
      // The endpoint answers: look the window up meanwhile (once per model), never before that.
      answered = true;
      void agent.spec.context.window(agent.spec.model).catch(() => undefined);
    }
    switch (ev.type) {
      case 'text_delta':
      case 'thinking_delta': {
        if (ev.type === 'text_delta') partial.set(ev.index, (partial.get(ev.index) ?? '') + ev.text);
        let held = open.get(ev.index);
        if (!held || held.kind !== ev.type) {
          flush(ev.index);
          held = { kind: ev.type, stream: redactingStream(agent.spec.secrets) };
          open.set(ev.index, held);
        }
        const text = held.stream.push(ev.text);
        if (text) emit({ type: ev.type, text });
        break;
      }
      case 'block':
        flush(ev.index);
        if (ev.block.type === 'text') {
          partial.set(ev.index, ev.block.text);
          emit({ type: 'text', text: ev.block.text });
        } else if (ev.block.type === 'thinking') emit({ type: 'thinking', text: ev.block.thinking });
        else
          for (const e of serverToolEvents(ev.block)) {
            // A hosted search's or fetch's results are a stranger's text, as a local one's are.
            if (e.type === 'server_tool_result' && !e.error)
              agent.spec.policy.taint.entered(`hosted ${e.name} results`);
            emit(e);
          }
        break;
      case 'reset':
        flushAll();
        partial.clear();
        emit(retryEvent(ev));
        break;
      case 'retry':
        emit(retryEvent(ev));
        break;
      case 'response':
        flushAll();
        return ev.response;
    }
  }
  flushAll();
  throw new LlmError('the model stream ended without a response', 'transient');
}

import type { ContentBlockParam, MessageParam } from '../llm/types';
import { Conversation } from './conversation';
import { INTERRUPTED } from './interrupt';
import { blocksOf } from '../llm/blocks';
import { shapeMessages } from './block-shape';
import { plural } from '../util/text';

/**
 * What the model reads for a call that had no result when codey stopped (a crash, `kill -9`, the
 * terminal closed): it may have run in part, so its effects must be checked.
 */
export const STOPPED_MID_CALL =
  'Interrupted: codey stopped while this call was running or about to run, so no result was recorded. It may have run in part: check its effects before relying on them.';

/** A conversation rebuilt from the store, and what had to change for the API to accept it. */
export interface ResumedConversation {
  conversation: Conversation;
  /** One line per repair, for the person (empty when the record was sent back as it was). */
  repairs: string[];
}

/** Is `m` only the note that the person interrupted the answer before it (see `appendInterrupted`)? */
function isInterruptNote(m: MessageParam): boolean {
  const blocks = blocksOf(m.content);
  return blocks.length === 1 && blocks[0].type === 'text' && blocks[0].text === INTERRUPTED.answer;
}

/**
 * How many of `before` are not among `after` as they were (same role and content). The blocks of a
 * message kept as it was are the same objects in both (`Conversation.fromMessages`), so that is
 * looked at first; only a message that fails it is compared as JSON, so a conversation that needed
 * no repair is never serialised here.
 */
function changedCount(before: readonly MessageParam[], after: readonly MessageParam[]): number {
  const byFirstBlock = new Map<unknown, MessageParam>();
  for (const m of after)
    if (Array.isArray(m.content) && m.content.length > 0) byFirstBlock.set(m.content[0], m);
  const same = (m: MessageParam): boolean => {
    if (!Array.isArray(m.content) || m.content.length === 0) return false;
    const o = byFirstBlock.get(m.content[0]);
    return (
      o !== undefined &&
      o.role === m.role &&
      o.content.length === m.content.length &&
      m.content.every((b, i) => o.content[i] === b)
    );
  };
  const left = before.filter((m) => !same(m));
  if (left.length === 0) return 0;
  const kept = new Set(after.map((m) => JSON.stringify(m)));
  return left.filter((m) => !kept.has(JSON.stringify(m))).length;
}

/**
 * Rebuild a stored conversation so that every request built from it is one the Messages API accepts
 * (the invariants of {@link Conversation}): a block or message in a shape the API refuses (a damaged
 * record) is dropped or fixed first (`shapeMessages`); a tool_use left without its tool_result (codey
 * stopped mid-tool) is answered with {@link STOPPED_MID_CALL}; anything `Conversation.fromJSON` has to drop
 * or merge (empty text, a thinking block without its signature, a result whose call is gone) is
 * dropped. An answer cut mid-stream never reaches the store, so it is not there to resume.
 * `finished`: results the store recorded as their tools finished, before the message holding them
 * was written; they answer their calls as they would have.
 */
export function resumeConversation(
  stored: readonly unknown[],
  storedResults: readonly unknown[] = [],
): ResumedConversation {
  const shaped = shapeMessages(stored, storedResults);
  const { messages, finished } = shaped;
  const conversation = Conversation.fromMessages(messages);
  const repairs: string[] = shaped.repair ? [shaped.repair] : [];
  const changed = changedCount(messages, conversation.messages);
  const calls = conversation.openToolUses();
  const done = new Map(finished.map((r) => [r.tool_use_id, r]));
  const open = calls.filter((u) => !done.has(u.id));
  if (calls.length > 0) {
    const results: ContentBlockParam[] = calls.map(
      (u) =>
        done.get(u.id) ?? {
          type: 'tool_result',
          tool_use_id: u.id,
          content: STOPPED_MID_CALL,
          is_error: true,
        },
    );
    conversation.appendUser(results);
  }
  if (calls.length > open.length)
    repairs.push(
      `${plural(calls.length - open.length, 'tool call')} that had finished when codey stopped kept ${calls.length - open.length === 1 ? 'its result' : 'their results'}`,
    );
  if (open.length > 0) {
    const names = [...new Set(open.map((u) => u.name))].join(', ');
    repairs.push(
      `${plural(open.length, 'tool call')} (${names}) still running when codey stopped got a result saying it was interrupted; check what it did`,
    );
  }
  if (changed > 0)
    repairs.push(
      `${plural(changed, 'message')} adjusted to what the API accepts (empty text, unsigned thinking or unpaired results dropped)`,
    );
  const last = conversation.messages.at(-1);
  // An answer the person interrupted ends with codey's note saying so: nothing was lost there.
  if (last?.role === 'user' && open.length === 0 && !isInterruptNote(last))
    repairs.push(
      'the last message had no answer yet (codey stopped mid-response, or the request failed): an answer cut mid-stream is not kept, and your next message is sent with it',
    );
  return { conversation, repairs };
}

/**
 * The invariants of a conversation (DESIGN.md "Conversation"), checked from the outside on plain
 * messages, for tests of `src/agent/conversation.ts` and of the loop.
 */
import { toolResultsPaired } from './request-checks';

type Obj = Record<string, unknown>;
interface Msg {
  role: string;
  content: string | readonly Obj[];
}

const blocks = (m: Msg): readonly Obj[] =>
  typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;

/**
 * Every broken invariant, one line each (`messages.<i>: …`); empty when all hold. A newest assistant
 * message whose tool_uses are not answered yet is allowed when `open` is true (tools are running).
 */
export function invariantProblems(input: readonly unknown[], opts: { open?: boolean } = {}): string[] {
  const messages = input as readonly Msg[];
  const problems: string[] = [];
  if (messages.length > 0 && messages[0].role !== 'user') problems.push('messages.0: not a user message');
  messages.forEach((m, i) => {
    const bs = blocks(m);
    if (i > 0 && messages[i - 1].role === m.role)
      problems.push(`messages.${i}: two ${m.role} messages in a row`);
    if (bs.length === 0) problems.push(`messages.${i}: empty content`);
    bs.forEach((b, k) => {
      if (b.type === 'text' && (typeof b.text !== 'string' || b.text.trim() === ''))
        problems.push(`messages.${i}.content.${k}: empty or whitespace text`);
      if (b.type === 'thinking' && (typeof b.signature !== 'string' || b.signature === ''))
        problems.push(`messages.${i}.content.${k}: thinking without its signature`);
      if (b.type === 'tool_result' && k > 0 && bs[k - 1].type !== 'tool_result')
        problems.push(`messages.${i}.content.${k}: tool_result after another kind of block`);
    });
  });
  const last = messages.at(-1);
  const pending = opts.open && last?.role === 'assistant' && blocks(last).some((b) => b.type === 'tool_use');
  const paired = toolResultsPaired(pending ? messages.slice(0, -1) : messages);
  if (paired) problems.push(paired);
  return problems;
}

/**
 * Checks on a Messages API request body that the real API enforces with a 400, so tests (and the fake
 * server's `validate` mode) catch a conversation the API would refuse. Wording follows the API's own
 * error messages where one exists.
 */

import { blockShapeProblem } from './block-checks';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Content blocks of a message (a string content is one text block). */
function blocksOf(message: unknown): Obj[] {
  if (!isObj(message)) return [];
  const { content } = message;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObj) : [];
}

const roleOf = (message: unknown): string => (isObj(message) ? String(message.role) : '?');

const idsOf = (blocks: Obj[], type: string, key: string): string[] =>
  blocks.filter((b) => b.type === type).map((b) => String(b[key]));

/**
 * Whether every `tool_use` in an assistant message is answered by exactly one `tool_result` (same id)
 * in the very next message, a user message, and every `tool_result` answers a `tool_use` of the
 * message just before it. Tool use ids must be unique in the conversation.
 * @returns null when all is paired, else one line per problem (`messages.<index>: …`).
 */
export function toolResultsPaired(messages: readonly unknown[]): string | null {
  const problems: string[] = [];
  const seen = new Set<string>();
  messages.forEach((message, i) => {
    const blocks = blocksOf(message);
    const uses = idsOf(blocks, 'tool_use', 'id');
    for (const id of uses) {
      if (seen.has(id)) problems.push(`messages.${i}: \`tool_use\` ids must be unique: ${id}`);
      seen.add(id);
    }
    const results = idsOf(blocks, 'tool_result', 'tool_use_id');
    if (results.length > 0) {
      const prev = i > 0 ? messages[i - 1] : undefined;
      const asked = roleOf(prev) === 'assistant' ? idsOf(blocksOf(prev), 'tool_use', 'id') : [];
      if (roleOf(message) !== 'user') {
        problems.push(`messages.${i}: \`tool_result\` blocks are only allowed in user messages`);
      }
      const unexpected = results.filter((id) => !asked.includes(id));
      if (unexpected.length > 0) {
        problems.push(
          `messages.${i}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(', ')}. ` +
            'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
        );
      }
      const repeated = [...new Set(results.filter((id, k) => results.indexOf(id) !== k))];
      if (repeated.length > 0) {
        problems.push(`messages.${i}: more than one \`tool_result\` for: ${repeated.join(', ')}`);
      }
    }
    if (roleOf(message) === 'assistant' && uses.length > 0) {
      const next = messages[i + 1];
      const answered = roleOf(next) === 'user' ? idsOf(blocksOf(next), 'tool_result', 'tool_use_id') : [];
      const missing = uses.filter((id) => !answered.includes(id));
      if (missing.length > 0) {
        problems.push(
          `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ` +
            `${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
    }
  });
  return problems.length > 0 ? problems.join('\n') : null;
}

const marked = (v: unknown): number => (isObj(v) && v.cache_control != null ? 1 : 0);

/**
 * Number of `cache_control` markers in a request body: on the body itself (automatic caching), each
 * tool, each system block, each message content block and each block inside a `tool_result`.
 * The API accepts at most 4 (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching).
 */
export function countCacheBreakpoints(body: unknown): number {
  if (!isObj(body)) return 0;
  let n = marked(body);
  if (Array.isArray(body.tools)) for (const t of body.tools) n += marked(t);
  if (Array.isArray(body.system)) for (const s of body.system) n += marked(s);
  if (Array.isArray(body.messages)) {
    for (const m of body.messages) {
      for (const b of blocksOf(m)) {
        n += marked(b);
        if (b.type === 'tool_result' && Array.isArray(b.content)) for (const c of b.content) n += marked(c);
      }
    }
  }
  return n;
}

/**
 * The first reason the real API would refuse this POST /v1/messages body with a 400, or null.
 * Checks: `model`, `max_tokens`, non-empty `messages`, non-empty content (the final assistant message
 * excepted), non-empty text blocks (not whitespace only either), a signature on every thinking block,
 * each block's shape (`blockShapeProblem`), tool results paired, at most 4 cache breakpoints.
 */
export function requestProblem(body: unknown): string | null {
  if (!isObj(body)) return 'Request body must be a JSON object.';
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  const { messages } = body;
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: at least one message is required';
  for (const [i, m] of messages.entries()) {
    const role = roleOf(m);
    if (role !== 'user' && role !== 'assistant')
      return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    const isFinalAssistant = i === messages.length - 1 && role === 'assistant';
    const blocks = blocksOf(m);
    if (blocks.length === 0 && !isFinalAssistant) {
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    }
    const k = blocks.findIndex((b) => b.type === 'text' && b.text === '');
    if (k >= 0 && !(isFinalAssistant && blocks.length === 1)) {
      return `messages.${i}.content.${k}.text: text content blocks must be non-empty`;
    }
    const w = blocks.findIndex(
      (b) => b.type === 'text' && typeof b.text === 'string' && /^\s+$/.test(b.text),
    );
    if (w >= 0)
      return `messages.${i}.content.${w}.text: text content blocks must contain non-whitespace text`;
    const t = blocks.findIndex(
      (b) => b.type === 'thinking' && (typeof b.signature !== 'string' || b.signature === ''),
    );
    if (t >= 0) return `messages.${i}.content.${t}: Invalid \`signature\` in \`thinking\` block`;
  }
  const shape = blockShapeProblem(messages);
  if (shape) return shape;
  const pairing = toolResultsPaired(messages);
  if (pairing) return pairing;
  const breakpoints = countCacheBreakpoints(body);
  if (breakpoints > 4)
    return `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`;
  return null;
}

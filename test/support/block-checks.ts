/**
 * The shape of each content block of a Messages API request, as the API checks it with a 400. Rules
 * from the API's documentation and errors: the request types of `@anthropic-ai/sdk` (generated from
 * the API's specification: which block types a message takes, their fields and field types) and the
 * API's own messages ("Extra inputs are not permitted", "String should match pattern
 * '^[a-zA-Z0-9_-]+$'" for tool_use ids, "`tool_use` ids must be unique", "`tool_result` blocks are
 * only allowed in user messages"). Written apart from src/, so it checks codey rather than repeats it.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): v is string => typeof v === 'string';

/** The fields each block type may have (besides `type` and `cache_control`), and which roles take it. */
const BLOCKS: Record<string, { roles: string[]; fields: string[] }> = {
  text: { roles: ['user', 'assistant'], fields: ['text', 'citations'] },
  image: { roles: ['user'], fields: ['source'] },
  document: { roles: ['user'], fields: ['source', 'title', 'context', 'citations'] },
  thinking: { roles: ['assistant'], fields: ['thinking', 'signature'] },
  redacted_thinking: { roles: ['assistant'], fields: ['data'] },
  tool_use: { roles: ['assistant'], fields: ['id', 'name', 'input', 'caller', 'toolset_name'] },
  tool_result: { roles: ['user'], fields: ['tool_use_id', 'content', 'is_error', 'toolset_name'] },
  server_tool_use: { roles: ['assistant'], fields: ['id', 'name', 'input', 'caller'] },
  web_search_tool_result: { roles: ['assistant'], fields: ['tool_use_id', 'content', 'caller'] },
  web_fetch_tool_result: { roles: ['assistant'], fields: ['tool_use_id', 'content', 'caller'] },
};

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const TOOL_ID = /^[a-zA-Z0-9_-]+$/;

/** The first problem of one block at `at` (`messages.3.content.1`), or null. */
function blockProblem(b: unknown, role: string, at: string, inResult = false): string | null {
  if (!isObj(b) || !str(b.type)) return `${at}.type: Field required`;
  const spec = BLOCKS[b.type];
  if (!spec || (inResult && !['text', 'image', 'document'].includes(b.type)))
    return `${at}.type: Input tag '${b.type}' does not match any of the expected tags`;
  if (!spec.roles.includes(role)) return `${at}: \`${b.type}\` blocks are not allowed in ${role} messages`;
  for (const key of Object.keys(b))
    if (key !== 'type' && key !== 'cache_control' && !spec.fields.includes(key))
      return `${at}.${b.type}.${key}: Extra inputs are not permitted`;
  if (b.cache_control != null && !(isObj(b.cache_control) && b.cache_control.type === 'ephemeral'))
    return `${at}.cache_control: Input should be an ephemeral cache control`;
  switch (b.type) {
    case 'text':
      if (!str(b.text)) return `${at}.text.text: Input should be a valid string`;
      if (b.citations != null && !Array.isArray(b.citations))
        return `${at}.text.citations: Input should be a valid list`;
      return null;
    case 'image': {
      const s = b.source;
      const ok =
        isObj(s) &&
        ((s.type === 'base64' && IMAGE_TYPES.includes(s.media_type as string) && str(s.data)) ||
          (s.type === 'url' && str(s.url)));
      return ok ? null : `${at}.image.source: Input should be a base64 or url image source`;
    }
    case 'document': {
      const s = b.source;
      const ok =
        isObj(s) &&
        ((s.type === 'base64' && s.media_type === 'application/pdf' && str(s.data)) ||
          (s.type === 'text' && s.media_type === 'text/plain' && str(s.data)) ||
          (s.type === 'url' && str(s.url)));
      return ok ? null : `${at}.document.source: Input should be a pdf, text or url source`;
    }
    case 'thinking':
      if (!str(b.thinking)) return `${at}.thinking.thinking: Input should be a valid string`;
      return str(b.signature) && b.signature !== ''
        ? null
        : `${at}: Invalid \`signature\` in \`thinking\` block`;
    case 'redacted_thinking':
      return str(b.data) && b.data !== '' ? null : `${at}.redacted_thinking.data: Field required`;
    case 'tool_use':
    case 'server_tool_use':
      if (!str(b.id) || !TOOL_ID.test(b.id))
        return `${at}.${b.type}.id: String should match pattern '^[a-zA-Z0-9_-]+$'`;
      if (!str(b.name) || b.name === '') return `${at}.${b.type}.name: Field required`;
      if (b.type === 'server_tool_use' && !['web_search', 'web_fetch'].includes(b.name))
        return `${at}.server_tool_use.name: Input should be 'web_search' or 'web_fetch'`;
      return isObj(b.input) ? null : `${at}.${b.type}.input: Input should be a valid dictionary`;
    case 'tool_result':
      if (!str(b.tool_use_id) || !TOOL_ID.test(b.tool_use_id))
        return `${at}.tool_result.tool_use_id: String should match pattern '^[a-zA-Z0-9_-]+$'`;
      if (b.is_error !== undefined && typeof b.is_error !== 'boolean')
        return `${at}.tool_result.is_error: Input should be a valid boolean`;
      if (b.content === undefined || str(b.content)) return null;
      if (!Array.isArray(b.content)) return `${at}.tool_result.content: Input should be a valid list`;
      for (const [k, part] of b.content.entries()) {
        const p = blockProblem(part, role, `${at}.tool_result.content.${k}`, true);
        if (p) return p;
        if (isObj(part) && part.type === 'text' && (part.text as string).trim() === '')
          return `${at}.tool_result.content.${k}.text: text content blocks must be non-empty`;
      }
      return null;
    default:
      if (!str(b.tool_use_id)) return `${at}.${b.type}.tool_use_id: Field required`;
      return isObj(b.content) || Array.isArray(b.content) ? null : `${at}.${b.type}.content: Field required`;
  }
}

/**
 * The first reason the API would refuse the shape of `messages` (a request's `messages`), or null:
 * roles, content types, each block's type, fields and field types, unique tool call ids, and each
 * server tool result in the message of its call. Pairing and empty text are `requestProblem`'s.
 */
export function blockShapeProblem(messages: readonly unknown[]): string | null {
  const ids = new Set<string>();
  for (const [i, m] of messages.entries()) {
    if (!isObj(m)) return `messages.${i}: Input should be a valid dictionary`;
    if (m.role !== 'user' && m.role !== 'assistant')
      return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    if (str(m.content)) continue;
    if (!Array.isArray(m.content)) return `messages.${i}.content: Input should be a valid list`;
    const calls = new Set<string>();
    for (const [k, b] of m.content.entries()) {
      const at = `messages.${i}.content.${k}`;
      const p = blockProblem(b, m.role, at);
      if (p) return p;
      const block = b as Obj;
      if (block.type === 'tool_use' || block.type === 'server_tool_use') {
        if (ids.has(block.id as string)) return `${at}: \`tool_use\` ids must be unique`;
        ids.add(block.id as string);
        if (block.type === 'server_tool_use') calls.add(block.id as string);
      }
      if (block.type === 'web_search_tool_result' || block.type === 'web_fetch_tool_result') {
        if (!calls.has(block.tool_use_id as string))
          return `${at}: a server tool result must follow its \`server_tool_use\` in the same message`;
        calls.delete(block.tool_use_id as string);
      }
    }
    if (calls.size > 0 && i < messages.length - 1)
      return `messages.${i}: \`server_tool_use\` without its result: ${[...calls].join(', ')}`;
  }
  return null;
}

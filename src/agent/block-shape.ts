import type { ContentBlockParam, MessageParam } from '../llm/types';

/**
 * The shape of each content block of a stored conversation, checked against what the Messages API
 * accepts in a request (the request types of `@anthropic-ai/sdk`, generated from the API's
 * specification, and the API's 400 messages: unknown fields are "Extra inputs are not permitted",
 * a tool_use id must match `^[a-zA-Z0-9_-]+$`, tool_use ids are unique, a tool_result only in a
 * user message, a server tool's result in the assistant message of its call). A record damaged on
 * disk (a flipped bit, an edit by hand) may hold any JSON; what the API would refuse is dropped, or
 * fixed when a field can be put right without guessing (an unknown field removed, a tool_use input
 * that is not an object replaced by `{}`). Pairing, alternation, empty text and an empty signature
 * are the Conversation's invariants and are left to it. Whether a thinking block's signature still
 * matches its text only the API can tell.
 */

type Obj = Record<string, unknown>;
type Role = 'user' | 'assistant';
type Check = (v: unknown) => boolean;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr: Check = (v) => typeof v === 'string';
const isBool: Check = (v) => typeof v === 'boolean';
const oneOf =
  (...xs: string[]): Check =>
  (v) =>
    typeof v === 'string' && xs.includes(v);
const orNull =
  (c: Check): Check =>
  (v) =>
    v === null || c(v);

/** Tool use ids as the API takes them. */
const TOOL_ID = /^[a-zA-Z0-9_-]+$/;
const isToolId: Check = (v) => typeof v === 'string' && TOOL_ID.test(v);
const isToolName: Check = (v) => typeof v === 'string' && v.length > 0 && v.length <= 200;
const isCacheControl: Check = (v) => v === null || (isObj(v) && v.type === 'ephemeral');
const isCitations: Check = (v) =>
  v === null || (Array.isArray(v) && v.every((c) => isObj(c) && typeof c.type === 'string'));

const isImageSource: Check = (s) =>
  isObj(s) &&
  ((s.type === 'base64' &&
    oneOf('image/jpeg', 'image/png', 'image/gif', 'image/webp')(s.media_type) &&
    isStr(s.data)) ||
    (s.type === 'url' && isStr(s.url)));
const isDocumentSource: Check = (s) =>
  isObj(s) &&
  ((s.type === 'base64' && s.media_type === 'application/pdf' && isStr(s.data)) ||
    (s.type === 'text' && s.media_type === 'text/plain' && isStr(s.data)) ||
    (s.type === 'url' && isStr(s.url)));

/** A block type: the roles that may hold it, its fields (true: required) and their checks. */
interface Spec {
  roles: readonly Role[];
  fields: Record<string, [required: boolean, check: Check]>;
}

const SPECS: Record<string, Spec> = {
  text: { roles: ['user', 'assistant'], fields: { text: [true, isStr], citations: [false, isCitations] } },
  image: { roles: ['user'], fields: { source: [true, isImageSource] } },
  document: {
    roles: ['user'],
    fields: {
      source: [true, isDocumentSource],
      title: [false, orNull(isStr)],
      context: [false, orNull(isStr)],
      citations: [false, (v) => v === null || (isObj(v) && isBool(v.enabled))],
    },
  },
  thinking: {
    roles: ['assistant'],
    fields: { thinking: [true, isStr], signature: [true, isStr] },
  },
  redacted_thinking: { roles: ['assistant'], fields: { data: [true, (v) => isStr(v) && v !== ''] } },
  tool_use: {
    roles: ['assistant'],
    fields: {
      id: [true, isToolId],
      name: [true, isToolName],
      input: [true, isObj],
      caller: [false, (v) => isObj(v) && isStr(v.type)],
      toolset_name: [false, orNull(isStr)],
    },
  },
  tool_result: {
    roles: ['user'],
    fields: {
      tool_use_id: [true, isToolId],
      content: [false, (v) => isStr(v) || Array.isArray(v)],
      is_error: [false, isBool],
    },
  },
  server_tool_use: {
    roles: ['assistant'],
    fields: { id: [true, isToolId], name: [true, oneOf('web_search', 'web_fetch')], input: [true, isObj] },
  },
  web_search_tool_result: {
    roles: ['assistant'],
    fields: { tool_use_id: [true, isToolId], content: [true, (v) => isObj(v) || Array.isArray(v)] },
  },
  web_fetch_tool_result: {
    roles: ['assistant'],
    fields: { tool_use_id: [true, isToolId], content: [true, isObj] },
  },
};

/** The field every block may carry besides its own. */
const CACHE_CONTROL: [required: boolean, check: Check] = [false, isCacheControl];
/** The spec of field `key` of a block (own fields only: a key such as "toString" is unknown). */
const fieldOf = (spec: Spec, key: string) =>
  key === 'cache_control' ? CACHE_CONTROL : Object.hasOwn(spec.fields, key) ? spec.fields[key] : undefined;

/** Block types a tool_result's content may hold. */
const RESULT_PARTS = new Set(['text', 'image', 'document']);

/** What was dropped or fixed, counted by the person's words for it. */
type Tally = Map<string, number>;
const note = (t: Tally, what: string) => t.set(what, (t.get(what) ?? 0) + 1);

/**
 * `raw` as a block the API accepts in a `role` message, fixed if it can be, or undefined (dropped),
 * with what was done counted in `tally`. A block that needs no change is `raw` itself, so that
 * whoever holds the stored messages can tell by identity that it came through as it was.
 */
function shapeBlock(raw: unknown, role: Role, tally: Tally, nested = false): Obj | undefined {
  if (!isObj(raw) || typeof raw.type !== 'string') return void note(tally, 'a block with no type');
  const spec = SPECS[raw.type];
  if (!spec || (nested && !RESULT_PARTS.has(raw.type)))
    return void note(tally, `a block of unknown type ${JSON.stringify(raw.type.slice(0, 40))}`);
  if (!spec.roles.includes(role)) return void note(tally, `a ${raw.type} block in a ${role} message`);
  let fixed = false;
  for (const key in raw) {
    if (key === 'type' || !Object.hasOwn(raw, key)) continue;
    const field = fieldOf(spec, key);
    if (!field || (!field[0] && !field[1](raw[key]))) fixed = true;
  }
  let out = raw;
  if (fixed) {
    out = { type: raw.type };
    for (const [key, value] of Object.entries(raw)) {
      const field = fieldOf(spec, key);
      if (key !== 'type' && field && (field[0] || field[1](value))) out[key] = value;
    }
  }
  if (raw.type === 'tool_use' && !isObj(out.input)) {
    out = { ...out, input: {} };
    note(tally, 'a tool_use whose input was not an object (now {})');
  }
  for (const key in spec.fields) {
    const [required, check] = spec.fields[key];
    if (required && !check(out[key])) return void note(tally, `a ${raw.type} block with no valid ${key}`);
  }
  if (raw.type === 'tool_result' && Array.isArray(out.content)) {
    const parts = out.content.map((p) => shapeBlock(p, 'user', tally, true)).filter((p) => p !== undefined);
    const kept = parts.filter((p) => p.type !== 'text' || (p.text as string).trim() !== '');
    const same =
      kept.length === out.content.length && kept.every((p, i) => p === (out.content as unknown[])[i]);
    if (kept.length !== out.content.length) fixed = true;
    if (!same) {
      out = out === raw ? { ...raw } : out;
      if (kept.length > 0) out.content = kept;
      else delete out.content;
    }
  }
  if (fixed) note(tally, `a ${raw.type} block with a field the API does not take (removed)`);
  return out;
}

/** A server tool's call and its result pair up in one assistant message: each without the other goes. */
function pairServerBlocks(blocks: Obj[], tally: Tally): Obj[] {
  const isCall = (b: Obj) => b.type === 'server_tool_use';
  const isResult = (b: Obj) => b.type === 'web_search_tool_result' || b.type === 'web_fetch_tool_result';
  const calls = new Set(blocks.filter(isCall).map((b) => b.id));
  const answered = new Set(
    blocks.filter((b) => isResult(b) && calls.has(b.tool_use_id)).map((b) => b.tool_use_id),
  );
  return blocks.filter((b) => {
    if (isCall(b) && !answered.has(b.id)) return void note(tally, 'a server tool call without its result');
    if (isResult(b) && !answered.has(b.tool_use_id))
      return void note(tally, 'a server tool result without its call');
    return true;
  });
}

/** Stored messages with every block in a shape the API accepts, and one line saying what changed. */
export interface ShapedMessages {
  messages: MessageParam[];
  /** Results recorded as their tools finished, checked as tool_result blocks. */
  finished: Extract<ContentBlockParam, { type: 'tool_result' }>[];
  /** `what the API would refuse was dropped or fixed: …`, one phrase per kind of damage; undefined when none. */
  repair?: string;
}

/**
 * Check every message and block of a stored conversation (see the module comment). A message whose
 * role is neither `user` nor `assistant`, or whose content is neither a string nor a list, is
 * dropped; a tool_use whose id an earlier call already had is dropped (its result then answers
 * nothing and goes too).
 */
export function shapeMessages(stored: readonly unknown[], finished: readonly unknown[] = []): ShapedMessages {
  const tally: Tally = new Map();
  const ids = new Set<unknown>();
  const messages: MessageParam[] = [];
  for (const m of stored) {
    const role = isObj(m) ? m.role : undefined;
    if (role !== 'user' && role !== 'assistant') {
      note(tally, 'a message with no valid role');
      continue;
    }
    const content = (m as Obj).content;
    if (typeof content === 'string') {
      messages.push({ role, content });
      continue;
    }
    if (!Array.isArray(content)) {
      note(tally, 'a message with no valid content');
      continue;
    }
    let blocks = content.map((b) => shapeBlock(b, role, tally)).filter((b) => b !== undefined);
    blocks = blocks.filter((b) => {
      if (b.type !== 'tool_use' && b.type !== 'server_tool_use') return true;
      if (ids.has(b.id)) return void note(tally, 'a tool call whose id an earlier call had');
      ids.add(b.id);
      return true;
    });
    if (role === 'assistant') blocks = pairServerBlocks(blocks, tally);
    messages.push({ role, content: blocks as unknown as ContentBlockParam[] });
  }
  const results = finished
    .map((r) => shapeBlock(r, 'user', tally))
    .filter((r) => r?.type === 'tool_result') as unknown as ShapedMessages['finished'];
  if (tally.size === 0) return { messages, finished: results };
  const what = [...tally].map(([w, n]) => (n > 1 ? `${w} (${n})` : w)).join('; ');
  return { messages, finished: results, repair: `what the API would refuse was dropped or fixed: ${what}` };
}

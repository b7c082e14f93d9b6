/**
 * The digest of a Messages API request: a short hash of each part the model reads (the system
 * prompt, each tool's description and schema, each block of each message, the other parameters), so
 * that replay can name the first part of a request that differs from the recorded one. What changes
 * from run to run without changing what the model is asked (the temp folders, today's date, the OS,
 * a subagent's random id, the cache breakpoints) is replaced or left out before hashing.
 */
import { createHash } from 'node:crypto';
import { blocksOf } from '../llm/blocks';

export interface RequestDigest {
  model: string;
  /** Everything but model, system, tools, messages and stream (max_tokens, thinking...). */
  params: string;
  system: string;
  /** `name description-hash schema-hash` per tool, in order. */
  tools: string[];
  /** `role block-hash...` per message. */
  messages: string[];
}

/** What differs between runs of one case: paths to write as placeholders, the date and the OS. */
export interface Volatile {
  paths: readonly (readonly [string, string])[];
  date: string;
  platform: string;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** JSON with the keys of every object sorted, so a change of key order is no change. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** The random id in the footer spawn_agent puts under a child's report (`[subagent 1a2b3c4d: 2 requests; …]`). */
const SUBAGENT_ID = /\[subagent [0-9a-f]{8}: /g;

const hash = (v: unknown): string => createHash('sha256').update(canonical(v)).digest('hex').slice(0, 12);

/** `v` with the volatile strings (paths, date, subagent ids) replaced and `cache_control` dropped (it changes nothing the model reads). */
export function normalize(v: unknown, vol: Volatile): Json {
  if (typeof v === 'string') {
    let s = v;
    for (const [path, name] of vol.paths) s = s.split(path).join(name);
    return s.split(vol.date).join('$DATE').replace(SUBAGENT_ID, '[subagent $AGENT: ');
  }
  if (Array.isArray(v)) return v.map((x) => normalize(x, vol));
  if (v && typeof v === 'object') {
    const out: Record<string, Json> = {};
    for (const [k, x] of Object.entries(v)) if (k !== 'cache_control') out[k] = normalize(x, vol);
    return out;
  }
  return (v ?? null) as Json;
}

type Block = Record<string, unknown>;
/** A recorded system prompt or message content as blocks (nothing when it is neither). */
const blocksIn = (content: unknown): Block[] =>
  typeof content === 'string' || Array.isArray(content)
    ? (blocksOf(content as never) as unknown as Block[])
    : [];

const systemText = (system: unknown, vol: Volatile): Json =>
  normalize(
    blocksIn(system).map((b) => ({
      ...b,
      text: String(b.text ?? '').replace(`OS: ${vol.platform}`, 'OS: $OS'),
    })),
    vol,
  );

/** The digest of a request body as codey sent it. */
export function digestOf(body: Record<string, unknown>, vol: Volatile): RequestDigest {
  const { model, system, tools, messages, stream: _stream, metadata: _metadata, ...params } = body;
  return {
    model: String(model),
    params: hash(normalize(params, vol)),
    system: hash(systemText(system, vol)),
    tools: ((tools as Block[] | undefined) ?? []).map((t) => {
      const { name, description, input_schema, ...rest } = normalize(t, vol) as Record<string, Json>;
      return `${String(name)} ${hash(description ?? rest)} ${hash(input_schema ?? null)}`;
    }),
    messages: ((messages as Block[] | undefined) ?? []).map((m) =>
      [String(m.role), ...blocksIn(m.content).map((b) => hash(normalize(b, vol)))].join(' '),
    ),
  };
}

const clip = (s: string, max = 80): string => {
  const one = JSON.stringify(s.replace(/\s+/g, ' '));
  return one.length > max ? `${one.slice(0, max - 1)}…"` : one;
};

/** A block in words: its type, and for a tool_result which call it answers and how it starts now. */
function describeBlock(b: Block, messages: readonly Block[]): string {
  if (b.type === 'tool_result') {
    const id = String(b.tool_use_id);
    const use = messages
      .flatMap((m) => blocksIn(m.content))
      .find((x) => x.type === 'tool_use' && x.id === id);
    const text = blocksIn(b.content)
      .map((x) => String(x.text ?? ''))
      .join('');
    return `the tool_result for ${id}${use ? ` (${String(use.name)})` : ''}, now ${clip(text)}`;
  }
  if (b.type === 'text') return `a text block, now ${clip(String(b.text))}`;
  if (b.type === 'tool_use') return `the tool_use ${String(b.id)} (${String(b.name)})`;
  return `a ${String(b.type)} block`;
}

function toolDrift(want: readonly string[], got: readonly string[]): string | undefined {
  const names = (l: readonly string[]) => l.map((t) => t.split(' ')[0]);
  const [w, g] = [names(want), names(got)];
  const added = g.filter((n) => !w.includes(n));
  const removed = w.filter((n) => !g.includes(n));
  if (added.length || removed.length) {
    const parts = [
      added.length && `added ${added.join(', ')}`,
      removed.length && `removed ${removed.join(', ')}`,
    ];
    return `tools: ${parts.filter(Boolean).join('; ')}`;
  }
  if (w.join() !== g.join()) return `tools: the order differs (now ${g.join(', ')})`;
  for (let i = 0; i < want.length; i++) {
    const [name, wd, ws] = want[i].split(' ');
    const [, gd, gs] = got[i].split(' ');
    if (wd !== gd) return `tools: the description of ${name} differs`;
    if (ws !== gs) return `tools: the input schema of ${name} differs`;
  }
  return undefined;
}

/**
 * The first part of request `body` (whose digest is `got`) that differs from the recorded digest
 * `want`, in words (`system prompt differs`, `messages[3]: …`), or undefined when none does.
 */
export function driftOf(
  want: RequestDigest,
  got: RequestDigest,
  body: Record<string, unknown>,
): string | undefined {
  if (want.system !== got.system) return 'the system prompt differs';
  const tools = toolDrift(want.tools, got.tools);
  if (tools) return tools;
  const messages = (body.messages as Block[] | undefined) ?? [];
  const n = Math.max(want.messages.length, got.messages.length);
  for (let i = 0; i < n; i++) {
    const w = want.messages[i]?.split(' ');
    const g = got.messages[i]?.split(' ');
    if (!w) return `messages[${i}] (${g?.[0]}) is new: the recording has ${want.messages.length} messages`;
    if (!g) return `messages[${i}] (${w[0]}) is missing: the request has ${got.messages.length} messages`;
    if (w[0] !== g[0]) return `messages[${i}] is from the ${g[0]}, recorded from the ${w[0]}`;
    const blocks = blocksIn(messages[i]?.content);
    for (let j = 1; j < Math.max(w.length, g.length); j++) {
      if (w[j] === g[j]) continue;
      if (!g[j]) return `messages[${i}] (${g[0]}): block ${j - 1} is missing`;
      return `messages[${i}] (${g[0]}): ${describeBlock(blocks[j - 1] ?? {}, messages)} differs from the recording`;
    }
  }
  if (want.model !== got.model) return `the model is ${got.model}, recorded ${want.model}`;
  if (want.params !== got.params) return 'the request parameters (max_tokens, thinking...) differ';
  return undefined;
}

/**
 * The checks of a case, on what one run left behind: the files of the workspace, the tool calls of
 * the stream-json events, the result line and the exit code. Each failure is a sentence; none is a pass.
 * (The `commands` check runs processes, so the runner does it.)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallPattern, Checks } from './case-file';

/** One tool call of the run, from its tool_start and tool_end events. */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
  status?: string;
  output?: string;
}

/** What the checks look at. */
export interface RunFacts {
  workspace: string;
  calls: ToolCall[];
  result?: {
    result?: string;
    num_turns?: number;
    permission_denials?: { tool_name: string; reason: string }[];
  };
  exitCode: number | null;
  requests: number;
}

const list = (x: string | string[] | undefined): string[] =>
  x === undefined ? [] : Array.isArray(x) ? x : [x];
const show = (s: string, max = 80): string => {
  const one = JSON.stringify(s);
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

/** The tool calls of a stream of events, in the order they started (a subagent's too). */
export function toolCalls(events: readonly Record<string, unknown>[]): ToolCall[] {
  const calls: ToolCall[] = [];
  const byId = new Map<string, ToolCall>();
  for (const e of events) {
    const id = String(e.id);
    if (e.type === 'tool_start') {
      const c: ToolCall = { id, name: String(e.name), input: e.input };
      calls.push(c);
      byId.set(id, c);
    } else if (e.type === 'tool_end' && byId.has(id)) {
      const c = byId.get(id)!;
      c.status = String(e.status);
      c.output = typeof e.output === 'string' ? e.output : JSON.stringify(e.output ?? '');
    }
  }
  return calls;
}

function checkFiles(spec: NonNullable<Checks['files']>, workspace: string): string[] {
  const out: string[] = [];
  for (const [path, want] of Object.entries(spec)) {
    const file = join(workspace, path);
    const exists = existsSync(file);
    if (typeof want === 'object' && want.absent) {
      if (exists) out.push(`${path} exists, expected it absent`);
      continue;
    }
    if (!exists) {
      out.push(`${path} is missing`);
      continue;
    }
    const text = readFileSync(file, 'utf8');
    if (typeof want === 'string') {
      if (text !== want) out.push(`${path} is ${show(text)}, expected ${show(want)}`);
      continue;
    }
    for (const s of list(want.contains)) if (!text.includes(s)) out.push(`${path} lacks ${show(s)}`);
    for (const s of list(want.not_contains)) if (text.includes(s)) out.push(`${path} still has ${show(s)}`);
  }
  return out;
}

/** Does `call` match `p`: its name, and each named input field matching its regular expression. */
function matches(call: ToolCall, p: CallPattern): boolean {
  if (typeof p === 'string') return call.name === p;
  if (call.name !== p.name) return false;
  const input = (call.input ?? {}) as Record<string, unknown>;
  return Object.entries(p.input ?? {}).every(([k, re]) => {
    const v = input[k];
    return v !== undefined && new RegExp(re).test(typeof v === 'string' ? v : JSON.stringify(v));
  });
}

const patternText = (p: CallPattern): string =>
  typeof p === 'string' ? p : `${p.name}${p.input ? ` ${JSON.stringify(p.input)}` : ''}`;

function checkDenials(spec: NonNullable<Checks['permission_denials']>, facts: RunFacts): string[] {
  const got = facts.result?.permission_denials ?? [];
  const seen = got.map((d) => `${d.tool_name} (${d.reason})`).join(', ') || 'none';
  if (spec.length === 0) return got.length ? [`permission denials: ${seen}, expected none`] : [];
  return spec
    .map((d) => (typeof d === 'string' ? { tool: d, reason: undefined } : d))
    .filter((d) => !got.some((g) => g.tool_name === d.tool && (!d.reason || g.reason === d.reason)))
    .map((d) => `no permission denial of ${d.tool}${d.reason ? ` (${d.reason})` : ''}; got ${seen}`);
}

/** Every check of `checks` but `commands`, on `facts`. */
export function runChecks(checks: Checks, facts: RunFacts): string[] {
  const out: string[] = [];
  const { calls } = facts;
  for (const c of calls) if (c.status === undefined) out.push(`${c.name} (${c.id}) started but never ended`);
  if (checks.files) out.push(...checkFiles(checks.files, facts.workspace));
  if (checks.tools) {
    const got = calls.map((c) => c.name);
    if (got.join() !== checks.tools.join())
      out.push(`tools called [${got.join(', ')}], expected [${checks.tools.join(', ')}]`);
  }
  for (const p of checks.tools_called ?? [])
    if (!calls.some((c) => matches(c, p))) out.push(`no call of ${patternText(p)}`);
  for (const p of checks.tools_not_called ?? []) {
    const n = calls.filter((c) => matches(c, p)).length;
    if (n) out.push(`${patternText(p)} was called ${n === 1 ? 'once' : `${n} times`}, expected never`);
  }
  for (const [name, status] of Object.entries(checks.tool_status ?? {})) {
    const of = calls.filter((c) => c.name === name);
    if (of.length === 0) out.push(`${name} was never called (expected status ${status})`);
    for (const c of of)
      if (c.status !== status) out.push(`${name} ended ${c.status ?? 'never'}, expected ${status}`);
  }
  for (const [name, want] of Object.entries(checks.tool_output ?? {})) {
    const of = calls.filter((c) => c.name === name);
    const texts = list(want);
    if (!of.some((c) => texts.every((t) => (c.output ?? '').includes(t)))) {
      const seen = of.map((c) => show(c.output ?? '', 100)).join(' / ') || 'no call';
      out.push(`no ${name} output holds ${texts.map((t) => show(t)).join(' and ')} (got ${seen})`);
    }
  }
  if (checks.permission_denials) out.push(...checkDenials(checks.permission_denials, facts));
  const text = facts.result?.result ?? '';
  for (const s of list(checks.result_contains))
    if (!text.includes(s)) out.push(`the result lacks ${show(s)}: ${show(text, 120)}`);
  if (checks.exit_code !== undefined && facts.exitCode !== checks.exit_code)
    out.push(`exit code ${facts.exitCode}, expected ${checks.exit_code}`);
  if (checks.max_requests !== undefined && facts.requests > checks.max_requests)
    out.push(`${facts.requests} model requests, expected at most ${checks.max_requests}`);
  return out;
}

// The checks of a case (case.json "checks"), run on what one codey run left behind: the files in the
// workspace, the stream-json events (the tool-call log), the result line, the exit code, and in
// offline mode the request bodies the replay server received. Each check returns failure reasons;
// an empty list is a pass.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const list = (x) => (x === undefined ? [] : Array.isArray(x) ? x : [x]);
const show = (s, max = 80) => {
  const one = JSON.stringify(s);
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

/** The check names a case may use; anything else in "checks" is a mistake in the case. */
export const CHECK_NAMES = [
  'files',
  'tools',
  'no_tools',
  'tool_status',
  'tool_output',
  'result_contains',
  'exit_code',
  'max_turns',
];

/** Checks that hold only for the scripted model (skipped with --live): the exact order of calls. */
export const REPLAY_ONLY = ['tools'];

/** Tool calls from the events: `{ id, name, input, status?, output?, code? }` in the order they started (`code`: a failed call's ToolError code). */
export function toolCalls(events) {
  const calls = [];
  const byId = new Map();
  for (const e of events) {
    if (e.type === 'tool_start') {
      const c = { id: e.id, name: e.name, input: e.input };
      calls.push(c);
      byId.set(e.id, c);
    } else if (e.type === 'tool_end' && byId.has(e.id)) {
      byId.get(e.id).status = e.status;
      byId.get(e.id).output = e.output;
      if (e.code) byId.get(e.id).code = e.code;
    }
  }
  return calls;
}

/** `files`: `{ path: "exact content" | { contains, not_contains, absent } }`, read after the run. */
function checkFiles(spec, workspace) {
  const out = [];
  for (const [path, want] of Object.entries(spec)) {
    const file = join(workspace, path);
    const exists = existsSync(file);
    if (want && typeof want === 'object' && want.absent) {
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

/** Is `want` a subsequence of `got`? */
function inOrder(got, want) {
  let i = 0;
  for (const name of got) if (name === want[i]) i++;
  return i === want.length;
}

/**
 * `tools`: an array is the exact ordered list of tool names called; `{ in_order: [...] }` is a list
 * that must appear in that order among the calls, others allowed between.
 */
function checkTools(spec, calls) {
  const got = calls.map((c) => c.name);
  const want = Array.isArray(spec) ? spec : spec.in_order;
  const ok = Array.isArray(spec)
    ? got.length === want.length && got.every((n, i) => n === want[i])
    : inOrder(got, want);
  return ok
    ? []
    : [
        `tools called [${got.join(', ')}], expected ${Array.isArray(spec) ? '' : 'in order '}[${want.join(', ')}]`,
      ];
}

/** `tool_status`: `{ name: status }`: the tool was called, and every call of it ended with that status. */
function checkToolStatus(spec, calls) {
  const out = [];
  for (const [name, status] of Object.entries(spec)) {
    const of = calls.filter((c) => c.name === name);
    if (of.length === 0) out.push(`${name} was never called (expected status ${status})`);
    for (const c of of) {
      if (c.status !== status)
        out.push(`${name} ended ${c.status ?? 'without tool_end'}, expected ${status}`);
    }
  }
  return out;
}

/** `tool_output`: `{ name: text | [texts] }`: some call of the tool returned output holding every text. */
function checkToolOutput(spec, calls) {
  const out = [];
  for (const [name, want] of Object.entries(spec)) {
    const of = calls.filter((c) => c.name === name);
    const texts = list(want);
    if (!of.some((c) => texts.every((t) => (c.output ?? '').includes(t)))) {
      const seen = of.map((c) => show(c.output ?? '', 100)).join(' / ') || 'no call';
      out.push(`no ${name} output holds ${texts.map((t) => show(t)).join(' and ')} (got ${seen})`);
    }
  }
  return out;
}

/** Run the case's checks; `live` skips those that only a scripted model can meet. */
export function runChecks(checks, run, { live }) {
  const failures = [];
  const skipped = live ? REPLAY_ONLY.filter((k) => checks[k] !== undefined) : [];
  const calls = toolCalls(run.events);
  for (const name of Object.keys(checks)) {
    if (!CHECK_NAMES.includes(name)) failures.push(`unknown check "${name}" in case.json`);
  }
  for (const c of calls) {
    if (c.status === undefined) failures.push(`${c.name} (${c.id}) started but never ended`);
  }
  const has = (k) => checks[k] !== undefined && !skipped.includes(k);
  if (has('files')) failures.push(...checkFiles(checks.files, run.workspace));
  if (has('tools')) failures.push(...checkTools(checks.tools, calls));
  if (has('no_tools')) {
    for (const name of list(checks.no_tools)) {
      if (calls.some((c) => c.name === name)) failures.push(`${name} was called, expected not`);
    }
  }
  if (has('tool_status')) failures.push(...checkToolStatus(checks.tool_status, calls));
  if (has('tool_output')) failures.push(...checkToolOutput(checks.tool_output, calls));
  if (has('result_contains')) {
    const text = run.result?.result ?? '';
    for (const s of list(checks.result_contains)) {
      if (!text.includes(s)) failures.push(`result lacks ${show(s)}: ${show(text, 120)}`);
    }
  }
  if (has('exit_code') && run.exitCode !== checks.exit_code) {
    failures.push(`exit code ${run.exitCode}, expected ${checks.exit_code}`);
  }
  if (has('max_turns') && run.result && run.result.num_turns > checks.max_turns) {
    failures.push(`${run.result.num_turns} model requests, expected at most ${checks.max_turns}`);
  }
  return { failures, skipped, calls };
}

/** The blocks of `type` in a message's content (a string content has none). */
const blocks = (m, type) => (Array.isArray(m?.content) ? m.content.filter((b) => b.type === type) : []);

/**
 * The replay checks, on the request bodies the server received: the run asked for exactly as many
 * turns as were recorded; in every request, each assistant tool_use is answered by exactly one
 * tool_result in the next (user) message and no tool_result answers nothing; and each recorded
 * tool_use came back answered in the request after its turn.
 */
export function replayChecks(turns, requests, problems) {
  const out = [...problems];
  if (requests.length !== turns.length) {
    out.push(`the run made ${requests.length} model requests; the replay has ${turns.length} turns`);
  }
  requests.forEach((body, r) => {
    const msgs = Array.isArray(body.messages) ? body.messages : [];
    const at = `request ${r + 1}`;
    msgs.forEach((m, i) => {
      const results = blocks(m, 'tool_result').map((b) => b.tool_use_id);
      const prev = msgs[i - 1];
      const uses =
        m.role === 'user' && prev?.role === 'assistant' ? blocks(prev, 'tool_use').map((b) => b.id) : [];
      for (const id of results) {
        if (!uses.includes(id))
          out.push(
            `${at}: message ${i + 1} has a tool_result for ${id}, which the message before did not call`,
          );
      }
      if (m.role !== 'assistant') return;
      const ids = blocks(m, 'tool_use').map((b) => b.id);
      if (ids.length === 0) return;
      const next = msgs[i + 1];
      const answered = next?.role === 'user' ? blocks(next, 'tool_result').map((b) => b.tool_use_id) : [];
      for (const id of ids) {
        const n = answered.filter((x) => x === id).length;
        if (n !== 1) out.push(`${at}: tool_use ${id} (message ${i + 1}) has ${n} tool_results, expected 1`);
      }
    });
  });
  turns.forEach((turn, t) => {
    const body = requests[t + 1];
    if (!body) return;
    const answered = new Set(
      (body.messages ?? []).flatMap((m) => blocks(m, 'tool_result').map((b) => b.tool_use_id)),
    );
    for (const b of turn.content) {
      if (b.type === 'tool_use' && !answered.has(b.id)) {
        out.push(`request ${t + 2}: no tool_result for ${b.name} ${b.id} of replay turn ${t + 1}`);
      }
    }
  });
  return out;
}

/**
 * An eval case on disk: a folder with `case.json` (the prompt, how codey runs, the checks),
 * `workspace/` (the seed, copied to a temp dir per run) and `cassette.jsonl` (the recorded model
 * replies, each with the digest of the request it answered).
 */
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import * as z from 'zod';
import type { RequestDigest } from './digest';

const texts = z.union([z.string(), z.array(z.string())]);
/** A tool call to look for: its name, and for some input fields a regular expression the value must match. */
const callPattern = z.union([
  z.string(),
  z.strictObject({ name: z.string(), input: z.record(z.string(), z.string()).optional() }),
]);
const fileCheck = z.union([
  z.string(),
  z.strictObject({
    contains: texts.optional(),
    not_contains: texts.optional(),
    absent: z.boolean().optional(),
  }),
]);

const checksSchema = z.strictObject({
  /** Shell commands run in the workspace after the run; each must exit 0 (e.g. the project's tests). */
  commands: z.array(z.string()).optional(),
  /** `path: "exact content"` or `path: { contains, not_contains, absent }`. */
  files: z.record(z.string(), fileCheck).optional(),
  /** The exact list of tool names called, in order. */
  tools: z.array(z.string()).optional(),
  tools_called: z.array(callPattern).optional(),
  tools_not_called: z.array(callPattern).optional(),
  /** `tool: status`: the tool was called and every call of it ended so (`done`, `error`, `denied`). */
  tool_status: z.record(z.string(), z.string()).optional(),
  /** `tool: text(s)`: some call of the tool returned output holding every text. */
  tool_output: z.record(z.string(), texts).optional(),
  /** Refused calls (the result's `permission_denials`): `[]` none at all; else each must be there. */
  permission_denials: z
    .array(z.union([z.string(), z.strictObject({ tool: z.string(), reason: z.string().optional() })]))
    .optional(),
  result_contains: texts.optional(),
  exit_code: z.number().int().optional(),
  max_requests: z.number().int().positive().optional(),
});
export type Checks = z.infer<typeof checksSchema>;
export type CallPattern = z.infer<typeof callPattern>;

const caseSchema = z.strictObject({
  prompt: z.string().min(1),
  description: z.string().optional(),
  allow: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
  permission_mode: z.enum(['default', 'accept-edits', 'plan', 'bypass']).optional(),
  max_turns: z.number().int().positive().optional(),
  /** The model to record with; replay uses the cassette's. */
  model: z.string().optional(),
  /** Other codey flags, e.g. `["--no-agents"]`; the runner's own (`-p`, `--base-url`...) are refused. */
  flags: z.array(z.string()).optional(),
  /** A run that has not ended by then is killed and fails (ms). */
  timeout_ms: z.number().int().positive().optional(),
  checks: checksSchema.optional(),
});
export type CaseDef = z.infer<typeof caseSchema>;

/** The flags the runner sets itself; a case may not give them. */
const RUNNER_FLAGS = ['-p', '--print', '--output-format', '--base-url', '--model', '--web', '--verbose'];

/** A recorded model reply, as the Messages API returned it. */
export interface RecordedResponse {
  content: Record<string, unknown>[];
  stop_reason: string | null;
  usage?: Record<string, number>;
}

/** One line of a cassette; a hand-written line has no `request` until it is recorded. */
export interface CassetteEntry {
  /**
   * Serve this reply only to a request whose first message holds this text (a subagent's task), so
   * that a hand-written cassette can script parallel subagents, whose requests come in any order.
   */
  match?: string;
  request?: RequestDigest;
  response: RecordedResponse;
}

export interface EvalCase {
  /** The folder's name. */
  name: string;
  dir: string;
  def: CaseDef;
  /** Absent when the folder has no cassette.jsonl yet. */
  cassette?: CassetteEntry[];
}

export class CaseError extends Error {}

/** Read a cassette: one JSON object per line (`{request, response}`, or a bare reply); `//` lines and blank lines are skipped. */
function parseCassette(text: string, file: string): CassetteEntry[] {
  const out: CassetteEntry[] = [];
  text.split('\n').forEach((line, i) => {
    const t = line.trim();
    if (!t || t.startsWith('//')) return;
    let obj: Record<string, unknown>;
    try {
      obj = JSON.parse(t) as Record<string, unknown>;
    } catch (err) {
      throw new CaseError(`${file}:${i + 1}: not JSON (${(err as Error).message})`);
    }
    const response = (obj.response ?? obj) as Partial<RecordedResponse>;
    if (!Array.isArray(response.content)) throw new CaseError(`${file}:${i + 1}: no "content" array`);
    const n = out.length + 1;
    const content = response.content.map((b, j) =>
      b.type === 'tool_use' ? { ...b, id: b.id ?? `toolu_eval_${n}_${j}`, input: b.input ?? {} } : b,
    );
    const toolUse = content.some((b) => b.type === 'tool_use');
    if (obj.match !== undefined && typeof obj.match !== 'string')
      throw new CaseError(`${file}:${i + 1}: "match" is not a string`);
    out.push({
      ...(typeof obj.match === 'string' && { match: obj.match }),
      ...(obj.request ? { request: obj.request as RequestDigest } : {}),
      response: {
        content,
        stop_reason: response.stop_reason ?? (toolUse ? 'tool_use' : 'end_turn'),
        ...(response.usage && { usage: response.usage }),
      },
    });
  });
  return out;
}

/** The cassette's text: one `{match?, request, response}` line per exchange. */
function formatCassette(entries: readonly CassetteEntry[]): string {
  return entries.map((e) => JSON.stringify(e)).join('\n') + '\n';
}

export function writeCassette(c: EvalCase, entries: readonly CassetteEntry[]): void {
  writeFileSync(join(c.dir, 'cassette.jsonl'), formatCassette(entries));
}

/** Read one case folder. @throws CaseError naming the file and what is wrong with it. */
export function loadCase(dir: string): EvalCase {
  const name = basename(dir);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8'));
  } catch (err) {
    throw new CaseError(`${name}/case.json: ${(err as Error).message}`);
  }
  const parsed = caseSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CaseError(`${name}/case.json: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  const owned = (parsed.data.flags ?? []).find((f) => RUNNER_FLAGS.includes(f.split('=')[0]));
  if (owned) throw new CaseError(`${name}/case.json: flags: ${owned} is set by the runner`);
  if (!existsSync(join(dir, 'workspace'))) throw new CaseError(`${name}: no workspace/ folder`);
  const file = join(dir, 'cassette.jsonl');
  return {
    name,
    dir,
    def: parsed.data,
    ...(existsSync(file) && {
      cassette: parseCassette(readFileSync(file, 'utf8'), `${name}/cassette.jsonl`),
    }),
  };
}

const isCase = (dir: string): boolean => existsSync(join(dir, 'case.json'));

/**
 * The case folders under `dirs`: a folder with case.json is a case, else each sub-folder with one.
 * Sorted by name. @throws CaseError for a missing folder, one with no cases, or two cases of one name.
 */
export function findCases(dirs: readonly string[]): string[] {
  const found: string[] = [];
  for (const d of dirs.map((x) => resolve(x))) {
    if (!existsSync(d) || !statSync(d).isDirectory()) throw new CaseError(`no folder ${d}`);
    if (isCase(d)) {
      found.push(d);
      continue;
    }
    const subs = readdirSync(d, { withFileTypes: true })
      .filter((e) => e.isDirectory() && isCase(join(d, e.name)))
      .map((e) => join(d, e.name));
    if (subs.length === 0) throw new CaseError(`no cases in ${d} (a case is a folder with case.json)`);
    found.push(...subs);
  }
  const names = found.map((f) => basename(f));
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new CaseError(`two cases are named ${twice}`);
  return found.sort((a, b) => (basename(a) < basename(b) ? -1 : 1));
}

/**
 * One run of one case: seed a fresh temp folder, start the model server, run codey `-p` with
 * stream-json under the network guard, then check what it left. The child gets a bare environment
 * and a key that only the model server accepts: in live runs the server holds the real key.
 */
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { costOf, priceOf } from '../llm/prices';
import { runChild } from '../tools/exec';
import { writeCassette, type EvalCase } from './case-file';
import { runChecks, toolCalls } from './checks';
import { GUARD_TAG } from './guard-tag';
import { startModelServer, type Upstream } from './model-server';
import type { CaseResult, Tokens } from './report';

/** The key codey runs with; only the model server reads it. */
const EVAL_KEY = 'sk-ant-eval-0000000000000000';
/** Variables passed through from the runner's environment; nothing else (no keys, no CODEY_*). */
const PASS_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'SYSTEMROOT'];
const DEFAULT_TIMEOUT_MS = 120_000;
const COMMAND_TIMEOUT_MS = 60_000;
/** How long codey has to end its tools after the SIGTERM of a timed-out run, before SIGKILL (ms). */
const TERM_GRACE_MS = 3_000;

export interface RunOptions {
  /** The built CLI (dist/cli.js) and the guard module (dist/eval-guard.js). */
  cli: string;
  guard: string;
  /** Forward to this endpoint (`--live`, `--record`); without it, replay the cassette. */
  upstream?: Upstream;
  /** Write the cassette from this run (needs `upstream`). */
  record?: boolean;
  /**
   * Replay the cassette's replies without comparing digests, and when the case passes write the
   * cassette again with this run's digests (after a deliberate change to the prompts or tools).
   */
  update?: boolean;
  model?: string;
  keep?: boolean;
  env?: Readonly<Record<string, string | undefined>>;
}

type Result = { result?: string; num_turns?: number; model?: string; usage?: Record<string, number> };

function parseStream(stdout: string) {
  const events: Record<string, unknown>[] = [];
  let result: (Result & Record<string, unknown>) | undefined;
  let junk = 0;
  for (const line of stdout.split('\n')) {
    if (!line.trim()) continue;
    try {
      const obj = JSON.parse(line) as Record<string, unknown>;
      if (obj.type === 'result') result = obj as typeof result;
      else events.push(obj);
    } catch {
      junk++;
    }
  }
  return { events, result, junk };
}

const tail = (s: string, n = 3): string => s.trim().split('\n').slice(-n).join(' | ');

function tokensOf(u: Record<string, number> | undefined): Tokens {
  return {
    input: u?.input_tokens ?? 0,
    output: u?.output_tokens ?? 0,
    cache_read: u?.cache_read_input_tokens ?? 0,
    cache_write: u?.cache_creation_input_tokens ?? 0,
  };
}

/** Run case `c` once. Never throws for what the case or the run did wrong: that is a failed result. */
export async function runCase(c: EvalCase, o: RunOptions): Promise<CaseResult> {
  const started = Date.now();
  const def = c.def;
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), `codey-eval-${c.name}-`)));
  const workspace = join(tmp, 'workspace');
  const home = join(tmp, 'home');
  cpSync(join(c.dir, 'workspace'), workspace, { recursive: true });
  mkdirSync(join(home, '.config', 'codey'), { recursive: true });
  writeFileSync(join(home, '.config', 'codey', 'config.json'), JSON.stringify({ api_key: EVAL_KEY }));
  const from = o.env ?? process.env;
  const env: Record<string, string> = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    TMPDIR: tmp,
    NO_COLOR: '1',
  };
  for (const k of PASS_ENV) if (from[k] !== undefined) env[k] = from[k];

  const reasons: string[] = [];
  if (!o.upstream && !c.cassette) reasons.push('no cassette.jsonl: record the case first (--record)');
  const vol = {
    paths: [
      [workspace, '$WORKSPACE'],
      [home, '$HOME'],
      [tmp, '$TMP'],
    ] as const,
    date: new Date().toISOString().slice(0, 10),
    platform: process.platform,
  };
  const server = await startModelServer({
    cassette: c.cassette ?? [],
    upstream: o.upstream,
    update: o.update,
    vol,
  });
  const model = o.upstream ? (o.model ?? def.model) : (c.cassette?.[0]?.request?.model ?? def.model);
  const args = [
    '--import',
    pathToFileURL(o.guard).href,
    o.cli,
    '-p',
    def.prompt,
    '--output-format',
    'stream-json',
  ];
  args.push('--no-web', '--base-url', server.url, ...(model ? ['--model', model] : []));
  for (const rule of def.allow ?? []) args.push('--allow', rule);
  for (const rule of def.deny ?? []) args.push('--deny', rule);
  if (def.permission_mode) args.push('--permission-mode', def.permission_mode);
  if (def.max_turns) args.push('--max-turns', String(def.max_turns));
  args.push(...(def.flags ?? []));

  const timeoutMs = def.timeout_ms ?? DEFAULT_TIMEOUT_MS;
  const run = reasons.length
    ? undefined
    : await runChild(process.execPath, args, {
        cwd: workspace,
        env,
        timeoutMs,
        // SIGTERM first: codey then ends its running commands, which have process groups of their own.
        termGraceMs: TERM_GRACE_MS,
        maxBytes: 32 * 1024 * 1024,
        endGroupOnExit: true,
      });
  await server.close();

  const { events, result, junk } = parseStream(run?.stdout ?? '');
  const calls = toolCalls(events);
  if (run) {
    if (run.timedOut) reasons.push(`no exit within ${timeoutMs} ms (killed)`);
    const blocked = run.stderr.split('\n').filter((l) => l.includes(GUARD_TAG));
    if (blocked.length) reasons.push(tail(blocked.join('\n')));
    if (server.drift) reasons.push(`cassette drift: ${server.drift}`);
    reasons.push(...server.problems);
    if (!result)
      reasons.push(`no result line (exit ${run.exitCode}; stderr: ${tail(run.stderr) || 'empty'})`);
    if (junk) reasons.push(`stdout has ${junk} lines that are not JSON`);
    if (!o.upstream && !server.drift && c.cassette && server.exchanges.length < c.cassette.length)
      reasons.push(`the run made ${server.exchanges.length} requests; the cassette has ${c.cassette.length}`);
    const checks = def.checks ?? {};
    reasons.push(
      ...runChecks(checks, {
        workspace,
        calls,
        result,
        exitCode: run.exitCode,
        requests: server.exchanges.length,
      }),
    );
    for (const command of checks.commands ?? []) {
      const r = await runChild('sh', ['-c', command], {
        cwd: workspace,
        env,
        timeoutMs: COMMAND_TIMEOUT_MS,
        streams: 'merged',
      });
      if (r.exitCode !== 0)
        reasons.push(`\`${command}\` exited ${r.exitCode ?? r.signal}: ${tail(r.output, 2)}`);
    }
    if (o.record && result)
      writeCassette(
        c,
        server.exchanges.map((x) => ({ request: x.digest, response: x.response! })),
      );
    // In the cassette's own order, so that an update's diff shows only the digests that changed.
    if (o.update && reasons.length === 0)
      writeCassette(
        c,
        [...server.exchanges]
          .sort((a, b) => a.entry! - b.entry!)
          .map((x) => {
            const { match } = c.cassette![x.entry!];
            return { ...(match !== undefined && { match }), request: x.digest, response: x.response! };
          }),
      );
  }

  const ok = reasons.length === 0;
  const keep = o.keep || !ok;
  if (keep && run) {
    writeFileSync(join(tmp, 'stdout.jsonl'), run.stdout);
    writeFileSync(join(tmp, 'stderr.txt'), run.stderr);
  } else rmSync(tmp, { recursive: true, force: true });
  const tools: Record<string, number> = {};
  for (const call of calls) tools[call.name] = (tools[call.name] ?? 0) + 1;
  const tokens = tokensOf(result?.usage);
  const price = priceOf(result?.model ?? model ?? '');
  return {
    name: c.name,
    ok,
    reasons,
    ...(server.drift && { drift: server.drift }),
    requests: server.exchanges.length,
    tools,
    tokens,
    ...(price && {
      cost: costOf(
        {
          input_tokens: tokens.input,
          output_tokens: tokens.output,
          cache_read_input_tokens: tokens.cache_read,
          cache_creation_input_tokens: tokens.cache_write,
        },
        price,
      ),
    }),
    wall_ms: Date.now() - started,
    ...(keep && { kept: tmp }),
  };
}

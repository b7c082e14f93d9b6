// One case, end to end: seed its workspace into a fresh temp dir, start the replay server (offline),
// run the built CLI with `-p --output-format stream-json` and the case's --allow rules, collect the
// events, and check the result.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { replayChecks, runChecks } from './checks.mjs';
import { GUARD_TAG } from './offline-guard.mjs';
import { parseReplay, startReplayServer } from './replay-server.mjs';

/** A run that has not finished by then is killed and fails (ms). Override with EVAL_TIMEOUT_MS. */
const TIMEOUT_MS = Number(process.env.EVAL_TIMEOUT_MS ?? 120_000);
/** A key the replay server accepts; it matches codey's redaction pattern, so it never shows. */
const OFFLINE_KEY = 'sk-ant-eval-offline-0000000000';
/** Variables passed through from the runner's environment (nothing else: no keys, no CODEY_*). */
const PASS_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'SYSTEMROOT'];
const PASS_ENV_LIVE = ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'CODEY_MODEL'];

/** Read a case folder: `case.json`, `workspace/`, and (offline) `replay.jsonl`. */
export function loadCase(dir, name) {
  const def = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8'));
  if (typeof def.prompt !== 'string' || !def.prompt) throw new Error(`${name}/case.json: no "prompt"`);
  const replayFile = join(dir, 'replay.jsonl');
  return {
    name,
    dir,
    prompt: def.prompt,
    allow: def.allow ?? [],
    checks: def.checks ?? {},
    turns: existsSync(replayFile)
      ? parseReplay(readFileSync(replayFile, 'utf8'), `${name}/replay.jsonl`)
      : undefined,
  };
}

/** Run the CLI; resolves `{ exitCode, stdout, stderr, timedOut }`. */
function runCli(bin, args, { cwd, env, guard }) {
  const nodeArgs = guard ? ['--import', pathToFileURL(guard).href] : [];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, bin, ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? (signal ? 128 : 1), stdout, stderr, timedOut });
    });
  });
}

/** stream-json lines: the events, and the final `{"type":"result"}` object; other lines are noted. */
function parseStream(stdout) {
  const events = [];
  const junk = [];
  let result;
  for (const line of stdout.split('\n')) {
    if (!line.trim()) continue;
    let obj;
    try {
      obj = JSON.parse(line);
    } catch {
      junk.push(line);
      continue;
    }
    if (obj.type === 'result') result = obj;
    else events.push(obj);
  }
  return { events, result, junk };
}

const tail = (s, n = 3) => s.trim().split('\n').slice(-n).join(' | ');

/**
 * Run one case. Returns `{ name, ok, reasons, requests, toolCalls, skipped, tmp }`; the temp dir is
 * removed unless the case failed or `keep` is set.
 * @param o.bin path of bin/codey.js; o.live: use the real API (no replay); o.keep: keep temp dirs.
 */
export async function runCase(c, { bin, guard, live, keep }) {
  if (!live && !c.turns) throw new Error(`no replay.jsonl (needed offline; use --live for the real API)`);
  const tmp = mkdtempSync(join(tmpdir(), `codey-eval-${c.name}-`));
  const workspace = join(tmp, 'workspace');
  const home = join(tmp, 'home');
  cpSync(join(c.dir, 'workspace'), workspace, { recursive: true });
  mkdirSync(home);
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    TMPDIR: tmp,
    NO_COLOR: '1',
  };
  for (const k of [...PASS_ENV, ...(live ? PASS_ENV_LIVE : [])]) {
    if (process.env[k] !== undefined) env[k] = process.env[k];
  }
  const args = ['-p', c.prompt, '--output-format', 'stream-json', '--no-web'];
  for (const rule of c.allow) args.push('--allow', rule);

  let server;
  if (!live) {
    server = await startReplayServer(c.turns);
    env.ANTHROPIC_API_KEY = OFFLINE_KEY;
    env.ANTHROPIC_BASE_URL = server.url;
    // The flag outranks any config file, so nothing seeded can point codey elsewhere.
    args.push('--base-url', server.url);
  }
  let run;
  try {
    run = await runCli(bin, args, { cwd: workspace, env, guard: live ? undefined : guard });
  } finally {
    await server?.close();
  }

  const { events, result, junk } = parseStream(run.stdout);
  const reasons = [];
  if (run.timedOut) reasons.push(`no exit within ${TIMEOUT_MS} ms (killed)`);
  const blocked = run.stderr.split('\n').filter((l) => l.includes(GUARD_TAG));
  if (blocked.length) reasons.push(tail(blocked.join('\n')));
  if (!result) reasons.push(`no result line (exit ${run.exitCode}; stderr: ${tail(run.stderr) || 'empty'})`);
  if (junk.length)
    reasons.push(`stdout has ${junk.length} non-JSON lines, e.g. ${JSON.stringify(junk[0].slice(0, 80))}`);
  const checked = runChecks(c.checks, { events, result, exitCode: run.exitCode, workspace }, { live });
  reasons.push(...checked.failures);
  if (!live) reasons.push(...replayChecks(c.turns, server.requests, server.problems));

  const ok = reasons.length === 0;
  if (ok && !keep) rmSync(tmp, { recursive: true, force: true });
  else {
    // What a person needs to see why: the raw stream, stderr and (offline) the request bodies.
    writeFileSync(join(tmp, 'stdout.jsonl'), run.stdout);
    writeFileSync(join(tmp, 'stderr.txt'), run.stderr);
    if (server) writeFileSync(join(tmp, 'requests.json'), `${JSON.stringify(server.requests, null, 2)}\n`);
  }
  return {
    name: c.name,
    ok,
    reasons,
    requests: live ? (result?.num_turns ?? 0) : server.requests.length,
    toolCalls: checked.calls.length,
    skipped: checked.skipped,
    tmp,
  };
}

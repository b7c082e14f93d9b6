/**
 * Run one hook command: `sh -c COMMAND` in the workspace through the injected process runner (the
 * one runner, `src/tools/exec.ts`), with the JSON payload on stdin, `CLAUDE_PROJECT_DIR` and
 * `CODEY_PROJECT_DIR` set to the project root, an environment without codey's keys (the runner
 * removes them), and a timeout after which its whole process group is killed.
 */
import type { RunChild } from '../util/exec-shapes';
import { readReply, type HookReply } from './reply';

type Env = Readonly<Record<string, string | undefined>>;

/** Default time a hook may run, in seconds (Claude Code's default too). */
export const DEFAULT_HOOK_TIMEOUT_S = 30;
/** Most bytes kept of a hook's stdout and of its stderr. */
const MAX_HOOK_OUTPUT_BYTES = 64 * 1024;

/** Where and how hooks run. */
export interface HookPlace {
  run: RunChild;
  /** The folder a hook starts in: the workspace. */
  cwd: string;
  /** The project root, as `CLAUDE_PROJECT_DIR` and `CODEY_PROJECT_DIR`. */
  projectDir: string;
  /** The environment hooks start from (codey's keys are removed by the runner). */
  env: Env;
}

/**
 * How one hook ended: `ok` (exit 0; `reply` when stdout was a JSON object), `blocked` (exit 2; its
 * stderr is the reason), `failed` (another exit code, a signal, or it could not start), `timed_out`
 * (killed at its timeout), `interrupted` (the person stopped the turn).
 */
export interface HookOutcome {
  status: 'ok' | 'blocked' | 'failed' | 'timed_out' | 'interrupted';
  exitCode: number | null;
  stdout: string;
  stderr: string;
  reply?: HookReply;
  /** Why it could not start, when it could not. */
  spawnError?: string;
}

/** Run `command` with `payload` on stdin for at most `timeoutS` seconds. Never throws. */
export async function runHook(
  command: string,
  payload: string,
  place: HookPlace,
  timeoutS: number,
  signal?: AbortSignal,
): Promise<HookOutcome> {
  const r = await place.run('sh', ['-c', command], {
    cwd: place.cwd,
    env: { ...place.env, CLAUDE_PROJECT_DIR: place.projectDir, CODEY_PROJECT_DIR: place.projectDir },
    input: payload,
    timeoutMs: Math.round(timeoutS * 1000),
    ...(signal && { signal }),
    maxBytes: MAX_HOOK_OUTPUT_BYTES,
    endGroupOnExit: true,
  });
  const base = { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
  if (r.timedOut) return { ...base, status: 'timed_out' };
  if (r.aborted) return { ...base, status: 'interrupted' };
  if (r.spawnError) return { ...base, status: 'failed', spawnError: r.spawnError.message };
  if (r.exitCode === 2) return { ...base, status: 'blocked' };
  if (r.exitCode !== 0) return { ...base, status: 'failed' };
  const reply = readReply(r.stdout);
  return { ...base, status: 'ok', ...(reply && { reply }) };
}

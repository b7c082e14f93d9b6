import { PROVIDER_ENV } from './shapes';

/**
 * Environment variables that hold codey's own secrets (the one list: {@link childEnv} removes them,
 * {@link secretValues} gives their values to the redactor). Child processes (the search command, the bash
 * tool) get an environment without them, so a tool's output cannot carry a key into the transcript,
 * the event log or the conversation.
 */
export const SECRET_ENV_NAMES = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CODEY_API_KEY',
  PROVIDER_ENV.brave,
  PROVIDER_ENV.tavily,
] as const;

/**
 * `base` (default `process.env`) with `extra` merged over it and every {@link SECRET_ENV_NAMES}
 * entry removed: the whole environment of a child (the process runner, `src/tools/exec.ts`, applies it to every child).
 */
export function childEnv(
  extra: Record<string, string | undefined> = {},
  base: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...base, ...extra })) if (v !== undefined) out[k] = v;
  for (const k of SECRET_ENV_NAMES) delete out[k];
  return out;
}

/**
 * The values of {@link SECRET_ENV_NAMES} set in `env`, then `extra` (the API key in force, which may
 * come from a config file): what the redactor keeps out of every output. Empty values are dropped.
 */
export function secretValues(
  env: Record<string, string | undefined>,
  extra: readonly (string | undefined)[] = [],
): string[] {
  const all = [...extra, ...SECRET_ENV_NAMES.map((k) => env[k])];
  return [...new Set(all.filter((x): x is string => typeof x === 'string' && x.length > 0))];
}

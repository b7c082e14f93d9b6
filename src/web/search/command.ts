/**
 * The `command` provider: the default, local, no-key search. It runs an argv template through the process runner,
 * never through a shell (the query is written by the model). The default template runs the Python
 * `ddgs` CLI (https://github.com/deedy5/ddgs), which writes its results to the `-o FILE.json` file as a
 * JSON array of `{ title, href, body }`, prints errors and "No results found." on stdout with exit
 * code 0, and exits 2 on a usage error (click).
 */
import type { RunChild, SandboxSetup } from '../../util/exec-shapes';
import { accessSync, constants, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, delimiter, isAbsolute, join, resolve, sep } from 'node:path';
import { WebError, type Query, type Result, type Searcher } from '../types';
import { queryWithSite, toResults } from './normalize';

/** Default argv template: the `ddgs` CLI writing JSON to `{out}`. */
export const DEFAULT_COMMAND: readonly string[] = [
  'ddgs',
  'text',
  '-q',
  '{query}',
  '-m',
  '{count}',
  '-o',
  '{out}',
];
/** Time a search command may run before it is killed, in ms. */
export const COMMAND_TIMEOUT_MS = 20_000;
/** Most bytes read from the command's stdout or its results file. */
const MAX_COMMAND_OUTPUT_BYTES = 4 * 1024 * 1024;
/** Longest piece of command output quoted in an error, in characters. */
const QUOTE_CHARS = 200;

export interface CommandOptions {
  /**
   * argv template. An element equal to `{query}`, `{count}` or `{out}` is replaced whole; no other
   * substitution happens. `{out}` is a fresh temp file path ending in `.json`, removed afterwards.
   */
  argv: readonly string[];
  /** Environment for the command, merged over the process environment (PATH here is used to find it). */
  env?: Record<string, string | undefined>;
  /** Default {@link COMMAND_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** The process runner (`runChild` of `src/tools/exec.ts`), which removes codey's keys from `env`. */
  run: RunChild;
  /**
   * `sandbox: on`: the command runs in the sandbox with the network (searching needs it), nothing
   * writable but its `{out}` folder, the person's keys hidden.
   */
  sandbox?: SandboxSetup;
}

function envPath(env: Record<string, string | undefined>): string {
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH');
  return (key && env[key]) || '';
}

function isExecutableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where `argv0` would be found, without running it: a path (containing a separator) is checked as
 * is; a bare name is looked up in the PATH of `env` (default `process.env`), with PATHEXT on Windows.
 * Returns the absolute path, or undefined when there is no executable file.
 */
export function findOnPath(
  argv0: string,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  if (!argv0) return undefined;
  if (argv0.includes('/') || argv0.includes(sep)) {
    const p = isAbsolute(argv0) ? argv0 : resolve(argv0);
    return isExecutableFile(p) ? p : undefined;
  }
  const exts =
    process.platform === 'win32'
      ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean)]
      : [''];
  for (const dir of envPath(env).split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const p = join(dir, argv0 + ext);
      if (isExecutableFile(p)) return p;
    }
  }
  return undefined;
}

/** Whether `argv0` can be found (see {@link findOnPath}); for the start-up notice. Never throws. */
export async function isCommandAvailable(
  argv0: string,
  env: Record<string, string | undefined> = process.env,
): Promise<boolean> {
  return findOnPath(argv0, env) !== undefined;
}

/** How to get `argv0`, for messages: `pipx install ddgs` for ddgs. */
export function installHint(argv0: string): string {
  return basename(argv0) === 'ddgs'
    ? 'install it with `pipx install ddgs` or set web_command'
    : 'install it or set web_command to a search command that is installed';
}

/** `300 ms`, `20 s`. */
function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

function quote(line: string): string {
  const l = line.trim();
  return l.length > QUOTE_CHARS ? `${l.slice(0, QUOTE_CHARS)}…` : l;
}

function firstLine(text: string): string {
  return quote(text.split('\n').find((l) => l.trim() !== '') ?? '');
}

function lastLine(text: string): string {
  return quote(
    text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .at(-1) ?? '',
  );
}

/**
 * Parse command output as results: a JSON array, an object with a `results` array, or one JSON
 * object a line (JSON Lines). Returns undefined when the text is none of these.
 */
export function parseResultsJson(text: string): unknown[] | undefined {
  const t = text.trim();
  if (!t.startsWith('[') && !t.startsWith('{')) return undefined;
  try {
    const v = JSON.parse(t) as unknown;
    if (Array.isArray(v)) return v;
    if (typeof v === 'object' && v !== null) {
      const results = (v as { results?: unknown }).results;
      return Array.isArray(results) ? results : [v];
    }
    return undefined;
  } catch {
    // Not one JSON value: try JSON Lines.
  }
  const items: unknown[] = [];
  for (const line of t.split('\n')) {
    if (line.trim() === '') continue;
    try {
      items.push(JSON.parse(line));
    } catch {
      return undefined;
    }
  }
  return items;
}

/** The `{out}` file's text, or undefined when the command wrote none. */
async function readOutFile(path: string, name: string): Promise<string | undefined> {
  const size = await stat(path).then(
    (s) => s.size,
    () => undefined,
  );
  if (size === undefined) return undefined;
  if (size > MAX_COMMAND_OUTPUT_BYTES) {
    throw new WebError(
      `${name} wrote a results file larger than ${MAX_COMMAND_OUTPUT_BYTES} bytes`,
      'provider',
    );
  }
  return readFile(path, 'utf8');
}

/**
 * A {@link Searcher} that runs a local command (default {@link DEFAULT_COMMAND}).
 *
 * The query (with ` site:HOST` appended when a site is given) is passed as one argument; a query
 * starting with `-` gets a leading space so that no command can read it as an option. Results come
 * from the `{out}` file when the command wrote one, else from stdout (JSON array or JSON Lines);
 * "No results found." (or, without `{out}`, empty stdout) is an empty list.
 *
 * @throws {@link WebError} `config` at construction when the template is empty or has no `{query}`
 *   element; from `search`: `config` when the command is not installed (with how to install it),
 *   `timeout` past `timeoutMs`, `aborted` when the signal fires, `provider` for a failing exit code
 *   (quoting its last line of stderr) or output that is not results (quoting its first line).
 */
export function commandSearcher(opts: CommandOptions): Searcher {
  const template = [...opts.argv];
  if (template.length === 0 || !template[0]) {
    throw new WebError(
      'web_command is empty; give an argv list such as ["ddgs", "text", "-q", "{query}"]',
      'config',
    );
  }
  if (!template.includes('{query}')) {
    throw new WebError('web_command has no "{query}" element, so the query would never reach it', 'config');
  }
  const timeoutMs = opts.timeoutMs ?? COMMAND_TIMEOUT_MS;
  const argv0 = template[0];
  const name = basename(argv0);

  return {
    name,
    async search(query: Query, signal: AbortSignal): Promise<Result[]> {
      if (signal.aborted) throw new WebError(`${name} search was cancelled`, 'aborted');
      let text = queryWithSite(query.text, query.site);
      if (text.startsWith('-')) text = ` ${text}`;
      const dir = template.includes('{out}') ? await mkdtemp(join(tmpdir(), 'codey-search-')) : undefined;
      const out = dir ? join(dir, 'results.json') : undefined;
      try {
        const args = template.slice(1).map((a) => {
          if (a === '{query}') return text;
          if (a === '{count}') return String(query.count);
          if (a === '{out}' && out) return out;
          return a;
        });
        // Its own process group, killed whole, also once the command exits: a wrapper script's
        // hanging child would otherwise hold the output pipe open long after the command ended.
        const r = await opts.run(argv0, args, {
          cwd: process.cwd(),
          env: { ...process.env, ...opts.env },
          signal,
          timeoutMs,
          maxBytes: MAX_COMMAND_OUTPUT_BYTES,
          overflow: 'stop',
          endGroupOnExit: true,
          ...(opts.sandbox && {
            sandbox: { ...opts.sandbox, writable: dir ? [dir] : [], network: true },
          }),
        });
        if (signal.aborted) throw new WebError(`${name} search was cancelled`, 'aborted');
        if (r.timedOut) {
          throw new WebError(
            `${name} did not finish within ${duration(timeoutMs)} and was stopped; try again later`,
            'timeout',
          );
        }
        if (r.spawnError?.code === 'ENOENT') {
          throw new WebError(`${name} is not installed (not found on PATH); ${installHint(argv0)}`, 'config');
        }
        if (r.spawnError?.code === 'EACCES') {
          throw new WebError(`${name} cannot be run (permission denied); ${installHint(argv0)}`, 'config');
        }
        if (r.overflow) {
          throw new WebError(`${name} printed more than ${MAX_COMMAND_OUTPUT_BYTES} bytes`, 'provider');
        }
        const { stdout, stderr } = r;
        if (r.exitCode !== 0) {
          const why = lastLine(stderr) || lastLine(stdout) || r.spawnError?.message;
          const how =
            r.exitCode === null ? `was killed (${r.signal ?? 'signal'})` : `exited with code ${r.exitCode}`;
          throw new WebError(`${name} ${how}${why ? `: ${why}` : ''}`, 'provider', r.exitCode ?? undefined);
        }

        const fileText = out ? await readOutFile(out, name) : undefined;
        if (fileText !== undefined && fileText.trim() !== '') {
          const items = parseResultsJson(fileText);
          if (!items) {
            const line = firstLine(fileText);
            throw new WebError(`${name} wrote a results file that is not JSON: ${line}`, 'provider');
          }
          return toResults(items, query.count);
        }
        if (stdout.trim() === '') {
          // A template with {out} promises a file; silence then means it did not run as configured.
          if (out) {
            throw new WebError(
              `${name} wrote no results file and printed nothing; check web_command`,
              'provider',
            );
          }
          return [];
        }
        const items = parseResultsJson(stdout);
        if (items) return toResults(items, query.count);
        if (/no results found/i.test(stdout)) return [];
        throw new WebError(`${name} returned no results but said: ${firstLine(stdout)}`, 'provider');
      } finally {
        if (dir) await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

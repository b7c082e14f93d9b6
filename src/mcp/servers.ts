/**
 * MCP server entries as a person or a repository writes them (codey's `mcp_servers`, Claude Code's
 * `mcpServers` in `~/.claude.json`, `.mcp.json` and `--mcp-config` files), read into one shape with
 * `${VAR}` and `${VAR:-default}` expanded from the person's environment. Never throws: an entry
 * that cannot be used is one line in `problems` and is left out.
 */

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Where a server entry came from, for `/mcp` and `--verbose`: codey's settings (the person's file,
 * or a trusted project file or `.mcp.json`), Claude Code's `~/.claude.json`, an `--mcp-config` file.
 */
export type ServerOrigin = 'config' | 'claude' | 'flag';

/** A server to start: a command (stdio) or a URL (Streamable HTTP, or the older HTTP+SSE). */
export type McpServerSpec =
  | {
      name: string;
      transport: 'stdio';
      command: string;
      args: string[];
      /** Set over the child's environment as given (codey's keys reach it only when named here). */
      env: Record<string, string>;
      cwd?: string;
      origin: ServerOrigin;
    }
  | {
      name: string;
      transport: 'http' | 'sse';
      url: string;
      headers: Record<string, string>;
      origin: ServerOrigin;
    };

/** Server names become part of tool names (`mcp__NAME__TOOL`): letters, digits, `_` and `-`. */
const NAME = /^[A-Za-z0-9_-]{1,48}$/;

/**
 * `text` with `${VAR}` replaced by the variable's value and `${VAR:-default}` by the value or,
 * when unset or empty, the default; `missing` gets each name that had neither.
 */
export function expandVars(text: string, env: Env, missing: Set<string>): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_m, name: string, fallback?: string) => {
      const value = env[name];
      if (value !== undefined && value !== '') return value;
      if (fallback !== undefined) return fallback;
      missing.add(name);
      return '';
    },
  );
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const stringMap = (v: unknown): Record<string, string> | undefined =>
  v === undefined
    ? {}
    : isObject(v) && Object.values(v).every((x) => typeof x === 'string')
      ? (v as Record<string, string>)
      : undefined;

/**
 * One entry as a {@link McpServerSpec}, or why it cannot be used. `enabled: false` gives
 * `undefined` with no problem.
 */
function readServer(
  name: string,
  raw: unknown,
  origin: ServerOrigin,
  env: Env,
): { spec?: McpServerSpec; problem?: string } {
  const bad = (why: string) => ({
    problem: `MCP server ${JSON.stringify(name).slice(0, 60)}: ${why}; not started`,
  });
  if (!NAME.test(name)) return bad('a name is letters, digits, "_" and "-" (at most 48)');
  if (!isObject(raw))
    return bad('expected an object such as { "command": "…" } or { "type": "http", "url": "…" }');
  if (raw.enabled === false || raw.disabled === true) return {};
  const missing = new Set<string>();
  const x = (s: string) => expandVars(s, env, missing);
  const type = raw.type ?? (raw.url !== undefined ? 'http' : 'stdio');
  let spec: McpServerSpec;
  if (type === 'stdio') {
    if (typeof raw.command !== 'string' || raw.command.trim() === '') return bad('"command" must be a text');
    const args = raw.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string'))
      return bad('"args" must be a list of texts');
    const envs = stringMap(raw.env);
    if (!envs) return bad('"env" must map names to texts');
    if (raw.cwd !== undefined && typeof raw.cwd !== 'string') return bad('"cwd" must be a text');
    spec = {
      name,
      transport: 'stdio',
      command: x(raw.command),
      args: args.map(x),
      env: Object.fromEntries(Object.entries(envs).map(([k, v]) => [k, x(v)])),
      ...(typeof raw.cwd === 'string' && { cwd: x(raw.cwd) }),
      origin,
    };
  } else if (type === 'http' || type === 'sse' || type === 'streamable-http') {
    if (typeof raw.url !== 'string') return bad('"url" must be a text');
    const headers = stringMap(raw.headers);
    if (!headers) return bad('"headers" must map names to texts');
    const url = x(raw.url);
    if (!/^https?:\/\//i.test(url)) return bad(`"url" must start with http:// or https://`);
    spec = {
      name,
      transport: type === 'sse' ? 'sse' : 'http',
      url,
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, x(v)])),
      origin,
    };
  } else return bad(`unknown "type" ${JSON.stringify(type).slice(0, 40)} (stdio, http or sse)`);
  if (missing.size) return bad(`${[...missing].join(', ')} not set (write \${NAME:-default} for a default)`);
  return { spec };
}

/**
 * Every server of `layers`, lowest first: a later layer's entry of the same name replaces an
 * earlier one. `layers[i].servers` is an object of entries by name (what `mcpServers` holds).
 */
export function readServers(
  layers: readonly { servers: unknown; origin: ServerOrigin; label: string }[],
  env: Env,
): { specs: McpServerSpec[]; problems: string[] } {
  const byName = new Map<string, { raw: unknown; origin: ServerOrigin; label: string }>();
  const problems: string[] = [];
  for (const layer of layers) {
    if (layer.servers === undefined) continue;
    if (!isObject(layer.servers)) {
      problems.push(`codey: ${layer.label}: MCP servers must be an object of servers by name; ignored`);
      continue;
    }
    for (const [name, raw] of Object.entries(layer.servers))
      byName.set(name, { raw, origin: layer.origin, label: layer.label });
  }
  const specs: McpServerSpec[] = [];
  for (const [name, { raw, origin, label }] of byName) {
    const { spec, problem } = readServer(name, raw, origin, env);
    if (spec) specs.push(spec);
    if (problem) problems.push(`codey: ${label}: ${problem}`);
  }
  return { specs, problems };
}

/**
 * A project's `.mcp.json` (Claude Code's project MCP servers, `{ "mcpServers": { … } }`) as the
 * codey setting `mcp_servers` of a project rung: its servers wait for the person's trust like any
 * other widening project setting (src/config/resolve.ts), so a changed command asks again.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { readProjectConfigText } from './config-text';
import { ConfigError } from './errors';
import { readSettingsFile } from './settings-file';

type Raw = Record<string, unknown>;

/** Which servers of `.mcp.json` a settings file lets be considered (`enabledMcpjsonServers`, `disabledMcpjsonServers`). */
export interface McpJsonLists {
  enabled?: string[];
  disabled?: string[];
}

/** The settings keys that choose among `.mcp.json`'s servers (they never start one unasked). */
export const MCP_JSON_LISTS = {
  enabledMcpjsonServers: 'enabled',
  disabledMcpjsonServers: 'disabled',
} as const;

const isFile = (p: string) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/** The nearest `.mcp.json` from `cwd` up to the git root, never in the home folder. */
function mcpJsonFile(cwd: string, home: string): { file: string; root: string } | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (relative(dir, home) === '') return undefined;
    const file = join(dir, '.mcp.json');
    if (isFile(file)) return { file, root: dir };
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) return undefined;
  }
}

/**
 * The project's `.mcp.json` as `{ file, data: { mcp_servers }, problems }`, less the servers `lists`
 * leave out: those a `disabledMcpjsonServers` names, and, where an `enabledMcpjsonServers` exists,
 * those it does not name. Undefined when there is no such file (or it is empty).
 * A file that is not JSON, not an object or a link out of its folder gives no servers and a problem
 * line (the start goes on without them).
 */
export async function readMcpJson(
  cwd: string,
  home: string,
  lists: readonly McpJsonLists[],
): Promise<{ file: string; data: Raw; unused: string[]; problems: string[] } | undefined> {
  const found = mcpJsonFile(cwd, home);
  if (!found) return undefined;
  const out = { file: found.file, data: {} as Raw, unused: [] as string[], problems: [] as string[] };
  let raw: Raw | undefined;
  try {
    raw = await readSettingsFile(found.file, {
      readText: async (f) => {
        const text = await readProjectConfigText(f, found.root);
        return text.trim() === '' ? undefined : text;
      },
    });
  } catch (err) {
    // A broken `.mcp.json` costs its servers, never the start.
    if (!(err instanceof ConfigError)) throw err;
    out.problems.push(
      `codey: ${err.message.replace(/; fix the file.*$/, '')}; its MCP servers are not started until it is fixed`,
    );
    return out;
  }
  if (!raw) return undefined;
  const servers = raw.mcpServers;
  if (servers === undefined) return out;
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
    out.problems.push(`codey: ${found.file}: mcpServers is not an object of servers by name; ignored`);
    return out;
  }
  const disabled = new Set(lists.flatMap((l) => l.disabled ?? []));
  const enabled = lists.some((l) => l.enabled) ? new Set(lists.flatMap((l) => l.enabled ?? [])) : undefined;
  out.data.mcp_servers = Object.fromEntries(
    Object.entries(servers as Raw).filter(([name]) => !disabled.has(name) && (!enabled || enabled.has(name))),
  );
  return out;
}

/**
 * The session's MCP servers: gathered from every place a person writes them, opened (the SDK is
 * loaded only when there is one), and closed at the end. A place that cannot be read is a notice,
 * never a failed start.
 */
import { join } from 'node:path';
import type { Settings } from '../config/resolve';
import { personHome, stateDir } from '../config/paths';
import type { McpConnections, openMcp as OpenMcp } from '../mcp/client';
import { childCommand, startChild } from '../mcp/child-start';
import { readServers, type McpServerSpec, type ServerOrigin } from '../mcp/servers';
import { startPiped } from '../tools/exec';
import type { PipedChild } from '../util/exec-shapes';
import { readJsonObject } from '../util/json-file';

type Env = Record<string, string | undefined>;
type Layer = { servers: unknown; origin: ServerOrigin; label: string };

/** A JSON file's object, or a notice saying why it cannot be used (`undefined` when absent and `quiet`). */
async function jsonFile(
  file: string,
  notices: string[],
  quiet: boolean,
): Promise<Record<string, unknown> | undefined> {
  try {
    const data = await readJsonObject(file);
    if (!data && !quiet)
      notices.push(`codey: --mcp-config ${file}: no such file; its servers are not started`);
    return data;
  } catch (err) {
    notices.push(
      `codey: ${file}: cannot read its MCP servers (${(err as Error).name === 'JsonFileError' ? 'not a JSON object' : 'unreadable'}); they are not started`,
    );
    return undefined;
  }
}

/**
 * Every server entry, lowest first (a later entry of the same name wins): the person's
 * `~/.claude.json` (`mcpServers`, then `projects[WORKSPACE].mcpServers`), codey's `mcp_servers`
 * (the person's file, and a project's only once trusted: src/config/resolve.ts holds it), then each
 * `--mcp-config` file in order.
 */
export async function mcpServerSpecs(
  s: Settings,
  env: Env,
  workspace: string,
): Promise<{ specs: McpServerSpec[]; notices: string[] }> {
  const notices: string[] = [];
  const layers: Layer[] = [];
  const claudeFile = join(personHome(env, workspace), '.claude.json');
  const claude = await jsonFile(claudeFile, notices, true);
  if (claude) {
    layers.push({ servers: claude.mcpServers, origin: 'claude', label: claudeFile });
    const projects = claude.projects as Record<string, { mcpServers?: unknown } | undefined> | undefined;
    const here = projects && typeof projects === 'object' ? projects[workspace] : undefined;
    if (here && typeof here === 'object')
      layers.push({
        servers: here.mcpServers,
        origin: 'claude',
        label: `${claudeFile} (projects["${workspace}"])`,
      });
  }
  layers.push({ servers: s.mcp_servers, origin: 'config', label: 'mcp_servers' });
  for (const file of s.mcp_config) {
    const data = await jsonFile(file, notices, false);
    if (data) layers.push({ servers: data.mcpServers ?? data.mcp_servers, origin: 'flag', label: file });
  }
  const { specs, problems } = readServers(layers, env);
  return { specs, notices: [...notices, ...problems] };
}

/** Where the OAuth tokens of HTTP servers are kept (mode 0600): codey's state folder. */
export function mcpTokenFile(env: Env, workspace: string): string {
  return join(stateDir(env, workspace), 'mcp-oauth.json');
}

/**
 * Open the servers of `specs` for a session in `workspace`; undefined (and the SDK never loaded)
 * when there are none.
 */
export async function openSessionMcp(
  specs: readonly McpServerSpec[],
  opts: { env: Env; workspace: string; timeoutMs: number; version: string },
): Promise<McpConnections | undefined> {
  if (specs.length === 0) return undefined;
  // The children boot (hundreds of ms) while the SDK loads.
  const started = new Map<string, PipedChild>();
  for (const spec of specs)
    if (spec.transport === 'stdio')
      started.set(
        spec.name,
        startChild(childCommand(spec), startPiped, { cwd: opts.workspace, env: opts.env }),
      );
  const killEarly = () => started.forEach((child) => child.kill());
  process.once('exit', killEarly);
  let openMcp: typeof OpenMcp;
  try {
    ({ openMcp } = await import('../mcp/client'));
  } catch (err) {
    killEarly();
    throw err;
  } finally {
    process.off('exit', killEarly);
  }
  return openMcp(specs, {
    started,
    cwd: opts.workspace,
    env: opts.env,
    timeoutMs: opts.timeoutMs,
    startPiped,
    version: opts.version,
    tokenFile: mcpTokenFile(opts.env, opts.workspace),
  });
}

/** What `/status` shows of a running session: the facts, gathered when asked. */
import { existsSync } from 'node:fs';
import type { Settings } from '../config/resolve';
import type { StatusFacts } from '../tui/commands/session-port';
import { gitRootOf } from '../util/git-root';
import type { CodeySession } from './session';

/** The Messages API's host as `/status` names it: `base_url`'s, else Anthropic's. */
export function endpointHost(baseUrl: string | undefined): string {
  try {
    return new URL(baseUrl ?? 'https://api.anthropic.com').host;
  } catch {
    return baseUrl ?? 'api.anthropic.com';
  }
}

/**
 * The session's facts for `/status`: `files` the settings files resolved at start (those that exist
 * now are listed), `endpoint` the API's host ({@link endpointHost}).
 */
export function statusFacts(s: CodeySession, files: Settings['files'], endpoint: string): StatusFacts {
  const root = gitRootOf(s.workspace, process.env.HOME);
  return {
    version: s.version,
    model: s.model,
    endpoint,
    workspace: s.workspace,
    ...(root ? { projectRoot: root } : {}),
    instructions: s.instructionFiles,
    instructionsSkipped: s.instructionsSkipped,
    settingsFiles: [files.project, ...files.claude, files.user].filter(
      (f): f is string => f !== undefined && existsSync(f),
    ),
    trusted: s.projectTrusted,
    tools: s.agent.registry.list().length,
    skills: s.skills.length,
    ...(s.agent.spec.subagents ? { agents: s.agents.length } : {}),
    web: s.webStatus,
    mode: s.policy.mode,
  };
}

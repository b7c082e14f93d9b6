/** What `/status` shows of a running session: the facts, gathered when asked. */
import { existsSync } from 'node:fs';
import { lateLoaded } from '../agent/late-instructions';
import type { Settings } from '../config/resolve';
import type { StatusFacts } from '../tui/commands/session-port';
import { gitRootOf } from '../util/git-root';
import { shownPath } from '../skills/places';
import type { CodeySession } from './session';

/**
 * What loads when the model first reads or edits a file it covers, for `--verbose` and `/status`:
 * the sub-folders' instructions files and each `paths:` rule with its globs.
 */
export function onDemand(s: Pick<CodeySession, 'instructionsOnDemand'>): string {
  return ['CLAUDE.md and AGENTS.md of sub-folders', ...s.instructionsOnDemand].join(', ');
}

/** The instructions files that arrived after start in the session's conversation, as the person reads the paths. */
function loadedLater(s: Pick<CodeySession, 'conversation' | 'workspace'>): string[] {
  return lateLoaded(s.conversation.messages).map((f) => shownPath(f, s.workspace, process.env));
}

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
    instructionsLater: loadedLater(s),
    instructionsOnDemand: onDemand(s),
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

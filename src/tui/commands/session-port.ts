/**
 * What a slash command may ask of the session (DESIGN.md, "Commands"), and the shapes of its answers.
 * The CLI implements it on the real session; the app's Controller extends it.
 */
import type { Usage } from '../../agent/events';
import type { McpServerState } from '../../util/mcp-shapes';

/** A `theme` setting: `auto` follows the terminal's background. */
export type ThemeName = 'auto' | 'dark' | 'light';

/** What the session has spent so far, for `/cost`. */
export interface Spend {
  /**
   * Dollars, each request priced at the model that served it (after `/model` the earlier requests
   * keep their price); requests of a model without a known price add nothing.
   */
  dollars: number;
  /** Models that served requests but have no known price, in the order they first did. */
  unpriced: string[];
}

/** Where `/worktree` moved the session. */
export interface WorktreeMove {
  /**
   * `created`: a new worktree on a new branch; `entered`: back in a codey worktree made earlier;
   * `returned`: back in the workspace the session started in (`/worktree main`); `stayed`: the
   * session was there already, nothing moved.
   */
  kind: 'created' | 'entered' | 'returned' | 'stayed';
  /** The workspace root now, absolute. */
  path: string;
  /** With `created` and `entered`: the worktree's branch. */
  branch?: string;
  /** Paths with uncommitted changes (untracked files included) left in the tree the session left. */
  uncommitted?: number;
}

/** One tree of the repository, for `/worktree` without an argument. */
export interface WorktreeInfo {
  path: string;
  /** Absent for a detached HEAD. */
  branch?: string;
  /** The session works there now. */
  current: boolean;
  /** The workspace the session started in (`/worktree main` goes back there). */
  main: boolean;
}

/** One tool of the session, for `/tools`. */
export interface ToolInfo {
  /** Wire name, e.g. `web_fetch`. */
  name: string;
  /** Shown name, e.g. `WebFetch`. */
  displayName: string;
  /** Whether the policy asks the person before it runs (read-only tools never ask). */
  asks: boolean;
}

/** One loaded skill, for `/skills`. */
export interface SkillInfo {
  name: string;
  /** Where it was found, as the person reads it, e.g. `project: .claude/skills/pdf` or `user: ~/.agents/skills/pdf`. */
  where: string;
  description: string;
  /** Its `allowed-tools`, advisory only: recorded and shown, never a grant. */
  allowedTools: readonly string[];
  /** Absent: both the model (the skill tool) and the person (`/name`); else who alone may. */
  invokedBy?: 'you only' | 'the model only';
}

/** One agent definition spawn_agent offers, for `/agents`. */
export interface AgentInfo {
  name: string;
  description: string;
  /** Where it was found, as the person reads it (e.g. `.codey/agents/reviewer.md`). */
  file: string;
}

/** What `/status` shows: which codey, where it runs, and what it loaded. */
export interface StatusFacts {
  version: string;
  model: string;
  /** The Messages API's host, e.g. `api.anthropic.com`. */
  endpoint: string;
  /** The workspace root, absolute. */
  workspace: string;
  /** The git root the workspace is in; absent outside a repository. */
  projectRoot?: string;
  /** The instructions files in the system prompt (shown paths), and those not read, each with why. */
  instructions: readonly string[];
  instructionsSkipped: readonly string[];
  /** The instructions files that arrived when a file they cover was read or edited (shown paths). */
  instructionsLater: readonly string[];
  /** What would load that way: the sub-folders' instructions files, the `paths:` rules with their globs. */
  instructionsOnDemand: string;
  /** The settings files that exist and were read, codey's and Claude Code's. */
  settingsFiles: readonly string[];
  /** Whether the person trusts this project's widening settings and command `allowed-tools`. */
  trusted: boolean;
  tools: number;
  skills: number;
  /** Agent definitions offered; undefined when subagents are off. */
  agents?: number;
  /** `web: command`, `web off`. */
  web: string;
  /** The permission mode now. */
  mode: string;
}

/** A stored session `/resume` can go on with. */
export interface SessionChoice {
  id: string;
  /** ISO 8601 time of its last change. */
  updatedAt: string;
  /** One line made from its first prompt. */
  title: string;
  /** `12 messages, 48 KB` */
  size: string;
}

/** What `/resume ID` came to: the lines to show, or why not (`otherWorkspace`: it ran elsewhere). */
export type ResumeReport =
  { ok: true; lines: string[] } | { ok: false; message: string; otherWorkspace?: string };

/** A point `/rewind` can go back to: the start of a user turn, or of a rewind (going there undoes it). */
export interface RewindPoint {
  /** Its number, from 1, in the order they happened (`/rewind N`). */
  n: number;
  kind: 'turn' | 'rewind';
  /** A turn's prompt (one line), or `rewind to 2`. */
  label: string;
  /** ISO 8601 time it started. */
  time: string;
  /** Files codey changed from this point on. */
  files: number;
}

/** One file a rewind would touch, with both sides for its diff (null: no file; undefined: not text). */
export interface RewindFileView {
  /** As the person reads it: relative to the workspace, or absolute outside it. */
  path: string;
  /**
   * `restore`: it goes back; `removed`: codey created it, so it goes; `changed`: changed since
   * codey's last write (left alone unless overwritten); `same`: nothing to do; `missing`: what it
   * held then was not kept (`why` says why).
   */
  state: 'restore' | 'remove' | 'changed' | 'same' | 'missing';
  why?: string;
  /** What it holds now and what it would hold (text, `\r\n` shown as `\n`); undefined for a binary file. */
  now: string | null | undefined;
  then: string | null | undefined;
  /** Sizes in bytes (null: no file), for a binary file's line. */
  bytes: { now: number | null; then: number | null };
}

/** What rewinding to a point would do (`/rewind`'s preview). */
export interface RewindPreview {
  point: RewindPoint;
  files: RewindFileView[];
  /** Points from this one on in which bash ran: their effects are not undone. */
  bash: number[];
  /** Whether the conversation can go back to this point too, or why not. */
  conversation: true | string;
}

/** What to put back: the files, the conversation or both; `overwrite`: also files the person changed since. */
export interface RewindChoice {
  code: boolean;
  conversation: boolean;
  overwrite?: boolean;
}

/**
 * What a slash command may do to the session (DESIGN.md, "Commands"): the narrow port commands run
 * through. Nothing else of the session reaches a command.
 */
export interface SessionPort {
  /** Current model id. */
  readonly model: string;
  /** The theme in use (`/theme`). */
  readonly theme: ThemeName;
  /** `/clear`: start a new conversation. */
  clear(): void;
  /** `/model NAME`: use another model from the next request on. */
  setModel(name: string): void;
  /**
   * `/theme NAME`: draw in that theme from now on, and save it as `theme` in the person's config
   * file. Resolves with the file written.
   * @throws The write's error (the theme is in use for the session all the same).
   */
  setTheme(name: ThemeName): Promise<string>;
  /** `/cost`: tokens used so far in this session. */
  usage(): Usage;
  /** `/cost`: dollars spent so far, and the models without a known price. */
  cost(): Spend;
  /**
   * `/compact [FOCUS]`: replace the conversation with a handoff summary the model writes, keeping
   * `focus` in view; `signal` interrupts it (the conversation stays as it was). Resolves with the
   * prompt's size before and (estimated) after, in tokens; rejects with an Error whose message is
   * shown to the person (an empty conversation, the API failed, interrupted).
   */
  compact(
    focus: string | undefined,
    signal: AbortSignal,
  ): Promise<{ tokensBefore: number; tokensAfter: number }>;
  /** `/tools`: the tools this session has. */
  tools(): ToolInfo[];
  /** `/skills`: the skills this session loaded, in precedence order; empty when none (or `--no-skills`). */
  skills(): SkillInfo[];
  /** `/agents`: the agent definitions spawn_agent offers; undefined when subagents are off. */
  agents(): AgentInfo[] | undefined;
  /** `/status`: which codey, where it runs, and what it loaded. */
  status(): StatusFacts;
  /** `/mcp`: the MCP servers configured, as they stand now; empty when none. */
  mcpServers(): McpServerState[];
  /** `/mcp restart NAME`: start that server again; resolves with a sentence saying how it went. */
  restartMcp(name: string): Promise<string>;
  /**
   * `/mcp login NAME`: begin an OAuth login to that HTTP server; resolves with the lines to show
   * (the URL to visit, the browser opened where it can be); how it ends comes later as a notice.
   */
  loginMcp(name: string): Promise<string[]>;
  /** `/mcp logout NAME`: forget that server's OAuth tokens; a sentence saying what was done. */
  logoutMcp(name: string): Promise<string>;
  /**
   * `/worktree NAME`: create a git worktree on a new branch and move the session into it (into the
   * existing one when codey made it before); `/worktree main`: move it back to the workspace it
   * started in. Rejects with an
   * Error whose message is shown to the person (e.g. not a git repository).
   */
  worktree(name: string): Promise<WorktreeMove>;
  /** `/worktree`: the repository's worktrees, the main tree first. Rejects outside a git repository. */
  worktrees(): Promise<WorktreeInfo[]>;
  /** `/resume`: this workspace's stored sessions, the most recent first, the current one left out. */
  sessions(): SessionChoice[];
  /**
   * `/resume ID`: go on with a stored session (ID or a unique prefix of one): its transcript is drawn
   * again and the next prompt continues it. A session of another workspace is refused unless
   * `anyWorkspace` (the person said to resume it here anyway).
   */
  resume(id: string, opts?: { anyWorkspace?: boolean }): ResumeReport;
  /** `/rewind`: the points this session can go back to, oldest first (after `-c` too). */
  rewindPoints(): RewindPoint[];
  /** `/rewind`: what going back to point `n` would do. Rejects when there is no point `n`. */
  previewRewind(n: number): Promise<RewindPreview>;
  /**
   * `/rewind`: go back to point `n`; resolves with lines saying what was restored, removed and left
   * alone, and how to undo it. Rejects when there is no point `n`.
   */
  rewind(n: number, choice: RewindChoice): Promise<string[]>;
}

import type { z } from 'zod';

/**
 * What a tool does, in gemini-cli's sense of `Kind`: the approval default, whether calls may run in
 * parallel, and what a subagent inherits all derive from it.
 */
export type ToolKind = 'read' | 'edit' | 'execute' | 'fetch' | 'agent';

/** Progress a running tool reports for the person (never seen by the model). */
export interface ToolProgress {
  /** Free text, e.g. a line of output or "following redirect to …". */
  message: string;
}

/**
 * Per-session state the tools share: remembered answers and caches live here, never in module
 * globals (STYLE.md rule 3), so two sessions (or two tests) never see each other's state.
 */
export interface ToolSession {
  /**
   * Memo for tools: answers to identical calls (web_search), the file versions this session has read
   * or written (file-version.ts). Keys are tool-defined.
   */
  readonly memo: Map<string, unknown>;
  /**
   * Folder where write_file and edit_file note the folders they put temporary files in, so that a
   * later start removes what a killed codey left (`removeStaleTempFiles`). Absent: nothing is noted.
   */
  readonly writeJournal?: string;
}

/** The narrow context a tool runs with (STYLE.md rule 4): never the whole config. */
export interface ToolContext {
  /** Workspace root, absolute, symlinks resolved. File tools refuse paths outside it. */
  cwd: string;
  /** Aborted on Esc / Ctrl-C / SIGINT; tools pass it to execa and undici. */
  signal: AbortSignal;
  /** Report progress to the person. */
  emit: (progress: ToolProgress) => void;
  session: ToolSession;
  /**
   * Decide on a further step of the running call as the call itself was decided (web_fetch: a
   * redirect to another host): deny rules win, an allow rule allows, otherwise the person is asked,
   * and without a person the step is refused. `call` describes the step as `describe` would.
   * Absent outside the agent loop: a tool then refuses the step.
   */
  approve?: (call: ToolCallDescription) => Promise<StepVerdict>;
}

/** The answer to {@link ToolContext.approve}: allowed, or refused with a sentence the model can act on. */
export type StepVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * What a tool returns: `output` becomes the tool_result the model reads; `title` and `meta` feed
 * the TUI and the event log only (gemini's llmContent / returnDisplay split).
 */
export interface ToolResult {
  output: string;
  isError?: boolean;
  /** One line for the person, e.g. "Read 120 lines" or "exit 1". */
  title?: string;
  /** Structured data for purpose-built views (a diff, an exit code, a final URL). */
  meta?: Record<string, unknown>;
}

/** How a call is shown to the person and matched by approval rules. */
export interface ToolCallDescription {
  /** One line, e.g. "Run: npm test" or "Fetch https://docs.python.org/3/". */
  summary: string;
  /** The thing a rule can match: the command, the URL, the query, the path. */
  detail: string;
  /** Whether "always allow this detail" makes sense (false for a search query). */
  rememberable: boolean;
  /** For web_fetch: the URL's host, so "always for docs.python.org" can be offered. */
  domain?: string;
  /** A change to a guarded path (`.git/`, `package.json`, codey's config files): always asked, see `isProtectedPath`. */
  protected?: boolean;
}

/**
 * A tool the model can call. Defined with {@link defineTool}; built only by `toolsIn`.
 * `run` may throw {@link ToolError} (its message becomes an `is_error` tool_result the model reads);
 * any other exception is reported the same way with "internal error" in front.
 */
export interface Tool<S extends z.ZodType = z.ZodType> {
  /** Wire name, snake_case (`web_fetch`). */
  readonly name: string;
  /** Name shown to the person, PascalCase (`WebFetch`). */
  readonly displayName: string;
  readonly kind: ToolKind;
  /** Model-facing description: carries the usage policy, since it is the only place the model reads it. */
  readonly description: string;
  readonly schema: S;
  /** Read-only tools never ask for approval. */
  readonly readOnly: boolean;
  describe(args: z.infer<S>): ToolCallDescription;
  /**
   * Refuse a call that cannot succeed whatever the person answers (web_fetch: a URL the jail refuses
   * without DNS). Runs before the rules and before anyone is asked; changes nothing.
   * @throws {@link ToolError} saying why and what to do instead: the call fails without asking.
   */
  check?(args: z.infer<S>): void;
  /**
   * What the call would change, for the person to see before approving (edit_file, write_file:
   * `{ path, before, after }`). Runs before approval and changes nothing.
   * @throws {@link ToolError} when the call cannot succeed: it fails without asking anyone.
   */
  preview?(args: z.infer<S>, ctx: ToolContext): Promise<Record<string, unknown> | undefined>;
  run(args: z.infer<S>, ctx: ToolContext): Promise<ToolResult | string>;
}

/** A tool failure whose message the model can act on: say what went wrong and what to try. */
export class ToolError extends Error {
  override name = 'ToolError';
}

export interface ToolSpec<S extends z.ZodType> {
  name: string;
  /** Defaults to the PascalCase form of `name`. */
  displayName?: string;
  kind: ToolKind;
  description: string;
  schema: S;
  /** Defaults to `kind === 'read'`. */
  readOnly?: boolean;
  /** Defaults to `{ summary: name, detail: JSON of args, rememberable: false }`. */
  describe?: (args: z.infer<S>) => ToolCallDescription;
  check?: (args: z.infer<S>) => void;
  preview?: (args: z.infer<S>, ctx: ToolContext) => Promise<Record<string, unknown> | undefined>;
  run: (args: z.infer<S>, ctx: ToolContext) => Promise<ToolResult | string>;
}

/** `web_fetch` → `WebFetch`. */
export function pascalName(name: string): string {
  return name
    .split('_')
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');
}

/** Define a tool (opencode's `Tool.define`): zod parameters, no classes. */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): Tool<S> {
  return {
    name: spec.name,
    displayName: spec.displayName ?? pascalName(spec.name),
    kind: spec.kind,
    description: spec.description,
    schema: spec.schema,
    readOnly: spec.readOnly ?? spec.kind === 'read',
    describe:
      spec.describe ??
      ((args) => ({ summary: spec.name, detail: JSON.stringify(args), rememberable: false })),
    check: spec.check,
    preview: spec.preview,
    run: spec.run,
  };
}

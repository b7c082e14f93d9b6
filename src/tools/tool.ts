import type { CallPreview, Decided, DescribeContext, ToolCallDescription, ToolKind } from '../util/shapes';
import type { SandboxSpec } from '../util/exec-shapes';
import type { z } from 'zod';
import { displayName } from '../util/text';
import type { ImageMediaType } from '../util/images';

export type { CallPreview, Decided, ImageMediaType, ToolKind };

/** Progress a running tool reports for the person (never seen by the model). */
export interface ToolProgress {
  /** Free text, e.g. a line of output or "following redirect to …". */
  message: string;
}

/**
 * Per-session state the tools share: remembered answers and caches live here, never in module
 * globals (STYLE.md rule 3), so two sessions (or two tests) never see each other's state.
 */
export interface ToolState {
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

/** The narrow context a tool runs with (STYLE.md rule 4, DESIGN.md "ToolContext"): never the whole config. */
export interface ToolContext {
  /** Workspace root, absolute, symlinks resolved. File tools refuse paths outside it. */
  cwd: string;
  /** Aborted on Esc / Ctrl-C / SIGINT; tools pass it to the process runner (`exec.ts`) and undici. */
  signal: AbortSignal;
  /** Report progress to the person. */
  emit: (progress: ToolProgress) => void;
  state: ToolState;
  /**
   * The environment a child process gets (bash, rg): the host's environment with codey's own keys
   * already removed (`childEnv`, src/util/secrets). Tools never read `process.env`.
   */
  env: Readonly<Record<string, string>>;
  /**
   * Folders outside `cwd` that read_file, glob and grep may also read (the discovered skills'
   * folders; absolute, symlinks resolved). Writes never reach them. Absent: none.
   */
  readRoots?: readonly string[];
  /**
   * More folders read_file, write_file, edit_file, glob and grep may reach, with the same jail as
   * `cwd` (`--add-dir`; absolute, symlinks resolved). Absent: none.
   */
  roots?: readonly string[];
  /**
   * Whether a deny rule keeps the file `abs` (absolute) from the model: grep and glob leave it out of
   * their results and say how many they left out. Absent: nothing is kept out.
   */
  keepsOut?: (abs: string) => boolean;
  /**
   * Decide on a further step of the running call as the call itself was decided (web_fetch: a
   * redirect to another host): deny rules win, an allow rule allows, otherwise the person is asked,
   * and without a person the step is refused. `call` describes the step as `describe` would.
   * Absent outside the agent loop: a tool then refuses the step. With `denyOnly` only deny rules
   * are consulted (a step the call's approval already covers, such as a redirect within the same
   * host): refused when one matches, allowed otherwise, and no one is asked.
   */
  approve?: (call: ToolCallDescription, opts?: { denyOnly?: boolean }) => Promise<Decided>;
  /** The tool_use id of the running call; absent outside the agent loop. */
  callId?: string;
  /**
   * The sandbox this call's commands run in (`sandbox: on`), with the network this call was allowed;
   * absent: commands run as the person, unconfined.
   */
  sandbox?: SandboxSpec;
}

/**
 * What the person sees of a finished call, by shape (STYLE.md rule 8): the TUI picks a view by
 * `kind`, never by the tool's name, so a new tool or an MCP tool renders with no UI change.
 * - `diff`: a file change; `before` null for a new file (or one too large to diff), shown as all added.
 * - `shell`: a command and how it ended; `exitCode` null when killed by a signal or never started.
 * - `list`: what a search or listing found: `total` entries, `shown` of them in the output, `ignored`
 *   left out by ignore files, `items` the entries (URLs), `cached` when answered from memory.
 * - `fetch`: a fetched page: the final URL, HTTP status, body size in bytes, the URLs redirected through.
 * - `subagent`: a child agent's run: its id and the task it was given.
 * - `image`: an image for the model: media type, size in bytes and (when known) pixels.
 * - `text`: lines for the person instead of the output.
 */
export type ToolDisplay =
  | {
      kind: 'diff';
      path: string;
      before: string | null;
      after: string;
      /** Set where the sides were cut (the `stream-json` and log form of a huge file's diff). */
      truncated?: boolean;
    }
  | { kind: 'shell'; command: string; exitCode: number | null; timedOut: boolean }
  | {
      kind: 'list';
      total: number;
      shown?: number;
      ignored?: number;
      items?: readonly string[];
      cached?: boolean;
    }
  | { kind: 'fetch'; url: string; status: number; bytes: number; redirects: readonly string[] }
  | { kind: 'subagent'; agentId: string; task: string }
  | { kind: 'image'; mediaType: string; bytes: number; width?: number; height?: number }
  | { kind: 'text'; text: string };

/**
 * What a tool returns: `output` becomes the tool_result the model reads; `title` and `display` feed
 * the TUI and the event log only (gemini's llmContent / returnDisplay split).
 */
export interface ToolResult {
  output: string;
  isError?: boolean;
  /** Set with `isError`: what kind of failure, for evals and the event log. */
  code?: ToolErrorCode;
  /** One line for the person, e.g. "Read 120 lines" or "exit 1". */
  title?: string;
  display?: ToolDisplay;
  /**
   * Names who wrote the output when a stranger did (an MCP server): dispatch tells the approval's
   * taint stage that their text entered the conversation, as it does for a fetched page.
   */
  untrusted?: string;
  /**
   * Set when the call's command ran in the sandbox: whether it failed (a non-zero exit, a failure to
   * start). The same command then asks before it runs unasked again, so the person may run it outside.
   */
  sandboxFailed?: boolean;
  /**
   * Images for the model (base64 `data`), sent as image blocks after the output; the tool caps
   * their size and count. Never scrubbed or cut (they are not text).
   */
  images?: readonly { mediaType: ImageMediaType; data: string }[];
}

export type { ToolCallDescription };

/**
 * Parameters given as JSON Schema (MCP tools arrive that way) with the validator that checks them.
 * `jsonSchema` is sent to the API as the tool's `input_schema`; `validate` returns the arguments to
 * run with, or one line per problem.
 */
export interface JsonSchemaParams<T = Record<string, unknown>> {
  readonly jsonSchema: { type: 'object'; [key: string]: unknown };
  validate(input: unknown): { ok: true; value: T } | { ok: false; issues: string[] };
}

/** A tool's parameters: a zod schema, or a JSON Schema with its validator. */
export type ToolSchema = z.ZodType | JsonSchemaParams<unknown>;

/** The arguments `run` receives for a schema. */
export type ArgsOf<S> = S extends z.ZodType ? z.infer<S> : S extends JsonSchemaParams<infer T> ? T : never;

/** Is `schema` zod (rather than {@link JsonSchemaParams})? */
export function isZodSchema(schema: ToolSchema): schema is z.ZodType {
  return !('jsonSchema' in schema && 'validate' in schema);
}

/**
 * A tool the model can call. Defined with {@link defineTool}; built only by `toolsIn`.
 * `run` may throw {@link ToolError} (its message becomes an `is_error` tool_result the model reads);
 * any other exception is reported the same way with "internal error" in front.
 */
export interface Tool<S extends ToolSchema = ToolSchema> {
  /** Wire name, snake_case (`web_fetch`). */
  readonly name: string;
  /** Name shown to the person, PascalCase (`WebFetch`). */
  readonly displayName: string;
  readonly kind: ToolKind;
  /** Model-facing description: carries the usage policy, since it is the only place the model reads it. */
  readonly description: string;
  readonly schema: S;
  /** The display kind of its results, so a running call already has that view (bash: `shell`). */
  readonly shows?: ToolDisplay['kind'];
  /** `at` gives the workspace root, so an absolute path inside it is shown (and matched) relative. */
  describe(args: ArgsOf<S>, at?: DescribeContext): ToolCallDescription;
  /**
   * Refuse a call that cannot succeed whatever the person answers (web_fetch: a URL the jail refuses
   * without DNS). Runs before the rules and before anyone is asked; changes nothing.
   * @throws {@link ToolError} saying why and what to do instead: the call fails without asking.
   */
  check?(args: ArgsOf<S>): void;
  /**
   * What the call would change, for the person to see before approving (edit_file, write_file:
   * `{ path, before, after }`). Runs before approval and changes nothing.
   * @throws {@link ToolError} when the call cannot succeed: it fails without asking anyone.
   */
  preview?(args: ArgsOf<S>, ctx: ToolContext): Promise<CallPreview | undefined>;
  run(args: ArgsOf<S>, ctx: ToolContext): Promise<ToolResult | string>;
}

/**
 * What kind of failure a {@link ToolError} is, for evals and the event log (the model reads the
 * message). `failed` when the tool names nothing more precise.
 */
export type ToolErrorCode =
  | 'failed'
  | 'not_found'
  | 'no_match'
  | 'outside_workspace'
  | 'not_a_file'
  | 'not_a_folder'
  | 'not_text'
  | 'read_only'
  | 'changed'
  | 'ambiguous'
  | 'out_of_range'
  | 'too_large'
  | 'io'
  | 'network'
  | 'bot_wall'
  | 'app_shell'
  | 'no_text'
  | 'refused'
  | 'unavailable'
  | 'invalid_arguments'
  | 'unknown_tool'
  | 'internal'
  | 'interrupted';

/** A tool failure whose message the model can act on: say what went wrong and what to try. */
export class ToolError extends Error {
  override name = 'ToolError';
  readonly code: ToolErrorCode;

  constructor(message: string, code: ToolErrorCode = 'failed', options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

export interface ToolSpec<S extends ToolSchema> {
  name: string;
  /** Defaults to the PascalCase form of `name`. */
  displayName?: string;
  kind: ToolKind;
  description: string;
  schema: S;
  /** See {@link Tool.shows}. */
  shows?: ToolDisplay['kind'];
  /** Defaults to `{ summary: name, detail: JSON of args, rememberable: false }`. */
  describe?: (args: ArgsOf<S>, at?: DescribeContext) => ToolCallDescription;
  check?: (args: ArgsOf<S>) => void;
  preview?: (args: ArgsOf<S>, ctx: ToolContext) => Promise<CallPreview | undefined>;
  run: (args: ArgsOf<S>, ctx: ToolContext) => Promise<ToolResult | string>;
}

/** Define a tool (opencode's `Tool.define`): zod or JSON Schema parameters, no classes. */
export function defineTool<S extends ToolSchema>(spec: ToolSpec<S>): Tool<S> {
  return {
    name: spec.name,
    displayName: spec.displayName ?? displayName(spec.name),
    kind: spec.kind,
    description: spec.description,
    schema: spec.schema,
    shows: spec.shows,
    describe:
      spec.describe ??
      ((args) => ({ summary: spec.name, detail: JSON.stringify(args), rememberable: false })),
    check: spec.check,
    preview: spec.preview,
    run: spec.run,
  };
}

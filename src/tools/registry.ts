import * as z from 'zod';
import {
  isZodSchema,
  ToolError,
  type Tool,
  type ToolContext,
  type ToolResult,
  type ToolSchema,
} from './tool';
import type { SandboxSetup, SandboxSpec } from '../util/exec-shapes';
import type { ToolDefinition } from '../util/shapes';
import { zodValidate } from './json-schema';
import { capLine, capQuote, capWords, MAX_QUOTE_CHARS } from './truncate';
import { showHidden } from '../util/hidden-chars';

/** Most schema problems listed in one "invalid arguments" error. */
const MAX_ISSUES = 10;

/** The JSON Schema sent for a tool's parameters: generated from zod, or given as is. */
function inputSchema(schema: ToolSchema): ToolDefinition['input_schema'] {
  if (!isZodSchema(schema)) return schema.jsonSchema;
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return { type: 'object', ...json };
}

/** Check `input` against a schema: the arguments to run with, or one line per problem. */
function validate(
  schema: ToolSchema,
  input: unknown,
): { ok: true; value: unknown } | { ok: false; issues: string[] } {
  if (isZodSchema(schema)) return zodValidate(schema, input);
  const checked = schema.validate(input);
  return checked.ok ? checked : { ok: false, issues: checked.issues.map(capQuote) };
}

export interface RegistryOptions {
  /** One-line notices for the person from building the tools (e.g. an unusable web provider). */
  notices?: readonly string[];
  /** The environment the tools' child processes get (`ToolContext.env`); default empty. */
  env?: Readonly<Record<string, string>>;
  /** Folders outside the workspace the read tools may also read (`ToolContext.readRoots`); default none. */
  readRoots?: readonly string[];
  /** More folders the file tools may read and write (`ToolContext.roots`); default none. */
  roots?: readonly string[];
  /** The sandbox these tools' commands run in (`sandbox: on`); absent: none. */
  sandbox?: SandboxSetup;
}

/**
 * The tools of one session, by wire name. Validates arguments with each tool's schema (zod, or a
 * JSON Schema's validator) before `run`, and turns every failure into a tool_result the model can
 * act on (STYLE.md rule 7).
 */
export class Registry {
  readonly #tools = new Map<string, Tool>();
  /** One-line notices for the person from building the tools (e.g. an unusable web provider). */
  readonly notices: readonly string[];
  /** What `ToolContext.env` is for these tools: codey's own keys already removed. */
  readonly env: Readonly<Record<string, string>>;
  /** What `ToolContext.readRoots` is for these tools: absolute, symlinks resolved. */
  readonly readRoots: readonly string[];
  /** What `ToolContext.roots` is for these tools: absolute, symlinks resolved. */
  readonly roots: readonly string[];
  /** The sandbox these tools' commands run in; absent: commands run unconfined. */
  readonly sandbox: SandboxSetup | undefined;

  constructor(tools: Iterable<Tool>, opts: RegistryOptions = {}) {
    for (const t of tools) this.#tools.set(t.name, t);
    this.notices = opts.notices ?? [];
    this.env = opts.env ?? {};
    this.readRoots = Object.freeze([...(opts.readRoots ?? [])]);
    this.roots = Object.freeze([...(opts.roots ?? [])]);
    this.sandbox = opts.sandbox;
  }

  /**
   * The sandbox a command started for workspace `cwd` runs in: `cwd` and {@link roots} writable,
   * with the network or not; undefined when these tools have no sandbox.
   */
  sandboxFor(cwd: string, network: boolean): SandboxSpec | undefined {
    return this.sandbox && { ...this.sandbox, writable: [cwd, ...this.roots], network };
  }

  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  list(): Tool[] {
    return [...this.#tools.values()];
  }

  #definitions?: ToolDefinition[];

  /**
   * Definitions for the request, JSON Schema generated from zod (never written twice) or given by
   * the tool. Built once: the same bytes go out on every request, so the cached prefix stays valid.
   */
  definitions(): ToolDefinition[] {
    this.#definitions ??= this.list().map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: inputSchema(t.schema),
    }));
    return this.#definitions;
  }

  /**
   * Parse `input` with the tool's schema. Returns the parsed arguments, or a message for the model
   * when the tool is unknown or the arguments do not match.
   */
  parse(
    name: string,
    input: unknown,
  ):
    | { ok: true; tool: Tool; args: unknown }
    | { ok: false; error: string; code: 'unknown_tool' | 'invalid_arguments' } {
    const tool = this.#tools.get(name);
    if (!tool) {
      return {
        ok: false,
        code: 'unknown_tool',
        error: `unknown tool "${showHidden(capQuote(name)).text}"; the tools are: ${[...this.#tools.keys()].join(', ')}`,
      };
    }
    const checked = validate(tool.schema, input ?? {});
    if (!checked.ok) {
      const all = checked.issues;
      const issues =
        all.slice(0, MAX_ISSUES).join('; ') +
        (all.length > MAX_ISSUES ? `; and ${all.length - MAX_ISSUES} more` : '');
      return {
        ok: false,
        code: 'invalid_arguments',
        error: `invalid arguments for ${name}: ${issues}. Rewrite the call to match the schema.`,
      };
    }
    return { ok: true, tool, args: checked.value };
  }

  /**
   * Run a parsed call. Never throws: a {@link ToolError} (with its code) or any other exception
   * (code `internal`) becomes an `isError` result; after an abort the output is empty (the agent
   * says the person interrupted it; code `interrupted`). An error message keeps no run of more than
   * `MAX_WORD_CHARS` non-space characters (`capWords`), and the message of an unexpected exception,
   * which may quote an argument (a Node error names the path), is cut to one short line. The output
   * is not capped here: `dispatch` caps every tool_result once, after removing secrets.
   */
  async run(tool: Tool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
    try {
      const raw = await tool.run(args as never, ctx);
      return typeof raw === 'string' ? { output: raw } : raw;
    } catch (err) {
      if (ctx.signal.aborted) return { output: '', isError: true, code: 'interrupted' };
      if (err instanceof ToolError) return { output: capWords(err.message), isError: true, code: err.code };
      const msg = err instanceof Error ? err.message : String(err);
      return {
        output: `internal error in ${tool.name}: ${capLine(msg.replace(/\s+/g, ' '), 2 * MAX_QUOTE_CHARS)}`,
        isError: true,
        code: 'internal',
      };
    }
  }
}

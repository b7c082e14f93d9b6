import { z } from 'zod';
import { ToolError, type Tool, type ToolContext, type ToolResult } from './tool';
import { capLine, capQuote, capWords, MAX_QUOTE_CHARS } from './truncate';

/** Most schema problems listed in one "invalid arguments" error. */
const MAX_ISSUES = 10;

/** A tool definition as the Messages API takes it (`tools[]` entry of a client tool). */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: { type: 'object'; [key: string]: unknown };
}

/**
 * The tools of one session, by wire name. Validates arguments with each tool's zod schema before
 * `run`, and turns every failure into a tool_result the model can act on (STYLE.md rule 7).
 */
export class Registry {
  readonly #tools = new Map<string, Tool>();
  /** One-line notices for the person from building the tools (e.g. an unusable web provider). */
  readonly notices: readonly string[];

  constructor(tools: Iterable<Tool>, notices: readonly string[] = []) {
    for (const t of tools) this.#tools.set(t.name, t);
    this.notices = notices;
  }

  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  list(): Tool[] {
    return [...this.#tools.values()];
  }

  #definitions?: ToolDefinition[];

  /**
   * Definitions for the request, JSON Schema generated from zod (never written twice). Built once:
   * the same bytes go out on every request, so the cached prefix stays valid.
   */
  definitions(): ToolDefinition[] {
    this.#definitions ??= this.list().map((t) => {
      const { $schema: _drop, ...schema } = z.toJSONSchema(t.schema, { io: 'input' }) as Record<
        string,
        unknown
      >;
      return { name: t.name, description: t.description, input_schema: { type: 'object', ...schema } };
    });
    return this.#definitions;
  }

  /**
   * Parse `input` with the tool's schema. Returns the parsed arguments, or a message for the model
   * when the tool is unknown or the arguments do not match.
   */
  parse(
    name: string,
    input: unknown,
  ): { ok: true; tool: Tool; args: unknown } | { ok: false; error: string } {
    const tool = this.#tools.get(name);
    if (!tool) {
      return {
        ok: false,
        error: `unknown tool "${capQuote(name)}"; the tools are: ${[...this.#tools.keys()].join(', ')}`,
      };
    }
    const parsed = tool.schema.safeParse(input ?? {});
    if (!parsed.success) {
      const all = parsed.error.issues;
      const issues =
        all
          .slice(0, MAX_ISSUES)
          .map((i) => `${i.path.length ? capQuote(i.path.join('.')) : '(input)'}: ${capQuote(i.message)}`)
          .join('; ') + (all.length > MAX_ISSUES ? `; and ${all.length - MAX_ISSUES} more` : '');
      return {
        ok: false,
        error: `invalid arguments for ${name}: ${issues}. Rewrite the call to match the schema.`,
      };
    }
    return { ok: true, tool, args: parsed.data };
  }

  /**
   * Run a parsed call. Never throws: a {@link ToolError} or any other exception becomes an
   * `isError` result; after an abort the output is empty (the agent says the person interrupted it).
   * An error message keeps no run of more than `MAX_WORD_CHARS` non-space characters (`capWords`),
   * and the message of an unexpected exception, which may quote an argument (a Node error names the
   * path), is cut to one short line. The output is not capped here: `dispatch` caps every
   * tool_result once, after removing secrets.
   */
  async run(tool: Tool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
    try {
      const raw = await tool.run(args, ctx);
      return typeof raw === 'string' ? { output: raw } : raw;
    } catch (err) {
      if (ctx.signal.aborted) return { output: '', isError: true };
      if (err instanceof ToolError) return { output: capWords(err.message), isError: true };
      const msg = err instanceof Error ? err.message : String(err);
      return {
        output: `internal error in ${tool.name}: ${capLine(msg.replace(/\s+/g, ' '), 2 * MAX_QUOTE_CHARS)}`,
        isError: true,
      };
    }
  }
}

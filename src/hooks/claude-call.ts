/**
 * A tool call as a hook payload names it (README, "Hooks"): by Claude Code's tool name where it has
 * one (`Bash`, `Read`, `Edit`, …; an MCP tool's `mcp__SERVER__TOOL` and codey's own tools keep
 * theirs), with Claude Code's input fields added beside codey's own (`file_path` beside `path`,
 * `timeout` beside `timeout_ms`), so that a hook written for Claude Code reads what it expects and
 * one written for codey does too. `codey_tool_name` always carries codey's name.
 */
import { resolve } from 'node:path';

type Input = Readonly<Record<string, unknown>>;

/** Claude Code's name for a codey tool, and its input fields that differ from codey's (undefined ones are left out). */
interface ClaudeShape {
  name: string;
  fields?: (input: Input, cwd: string) => Record<string, unknown>;
}

const filePath = (input: Input, cwd: string) => ({
  file_path: typeof input.path === 'string' ? resolve(cwd, input.path) : undefined,
});

/** codey's tools that Claude Code has too, by codey's name. */
const CLAUDE_SHAPES: Readonly<Record<string, ClaudeShape>> = {
  bash: { name: 'Bash', fields: (i) => ({ timeout: i.timeout_ms }) },
  read_file: { name: 'Read', fields: filePath },
  write_file: { name: 'Write', fields: filePath },
  edit_file: { name: 'Edit', fields: filePath },
  glob: { name: 'Glob' },
  grep: { name: 'Grep', fields: (i) => ({ '-i': i.ignore_case }) },
  web_fetch: { name: 'WebFetch' },
  web_search: {
    name: 'WebSearch',
    fields: (i) => ({ allowed_domains: typeof i.site === 'string' ? [i.site] : undefined }),
  },
  spawn_agent: {
    name: 'Task',
    fields: (i) => ({ prompt: i.task, subagent_type: i.agent ?? 'general-purpose' }),
  },
  skill: { name: 'Skill', fields: (i) => ({ skill: i.name }) },
};

/** Claude Code's name for codey's tool `tool` (`bash` → `Bash`), or undefined when it has none. */
export function claudeToolName(tool: string): string | undefined {
  return CLAUDE_SHAPES[tool]?.name;
}

/** The payload fields naming a call: `tool_name`, `tool_input` (codey's fields and Claude Code's), `codey_tool_name`. */
export function claudeCall(
  tool: string,
  input: unknown,
  cwd: string,
): { tool_name: string; tool_input: unknown; codey_tool_name: string } {
  const shape = CLAUDE_SHAPES[tool];
  const own =
    input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Input) : undefined;
  const added = shape?.fields && own ? shape.fields(own, cwd) : {};
  const present = Object.entries(added).filter(([key, v]) => v !== undefined && !(own && key in own));
  return {
    tool_name: shape?.name ?? tool,
    tool_input: present.length ? { ...own, ...Object.fromEntries(present) } : input,
    codey_tool_name: tool,
  };
}

const lines = (output: string) => output.split('\n').filter((l) => l.trim() !== '');
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Claude Code's `tool_response` fields of each tool's successful result, by codey's name. */
const CLAUDE_RESPONSES: Readonly<
  Record<string, (input: Input, output: string, cwd: string) => Record<string, unknown>>
> = {
  bash: (_i, output) => ({ stdout: output, stderr: '', interrupted: false, isImage: false }),
  read_file: (i, output, cwd) => ({
    type: 'text',
    file: { filePath: filePath(i, cwd).file_path, content: output },
  }),
  write_file: (i, _o, cwd) => ({ filePath: filePath(i, cwd).file_path, content: i.content, success: true }),
  edit_file: (i, _o, cwd) => ({
    filePath: filePath(i, cwd).file_path,
    oldString: i.old_string,
    newString: i.new_string,
    replaceAll: i.replace_all === true,
    success: true,
  }),
  glob: (_i, output) => {
    const filenames = lines(output);
    return { filenames, numFiles: filenames.length };
  },
  grep: (i, output) => {
    const mode = str(i.output_mode) ?? 'files_with_matches';
    if (mode !== 'files_with_matches') return { mode, content: output, numLines: lines(output).length };
    const filenames = lines(output);
    return { mode, filenames, numFiles: filenames.length };
  },
  web_fetch: (i, output) => ({ url: i.url, result: output }),
  web_search: (i, output) => ({ query: i.query, results: [output] }),
  spawn_agent: (_i, output) => ({ content: [{ type: 'text', text: output }] }),
};

/**
 * A PostToolUse payload's `tool_response` for a successful call of `tool`: Claude Code's fields for
 * that tool (`stdout` of Bash, `file.content` of Read, `filePath` of Write and Edit, `filenames` of
 * Glob, …) beside codey's own `output` (the text the model reads) and `is_error: false`. Tools
 * Claude Code does not have (MCP tools, codey's own) get codey's two fields only.
 */
export function claudeResponse(
  tool: string,
  input: unknown,
  output: string,
  cwd: string,
): Record<string, unknown> {
  const own = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Input) : {};
  const fields = CLAUDE_RESPONSES[tool]?.(own, output, cwd) ?? {};
  const present = Object.entries(fields).filter(([, v]) => v !== undefined);
  return { ...Object.fromEntries(present), output, is_error: false };
}

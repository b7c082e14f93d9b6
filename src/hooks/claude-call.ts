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

/**
 * A hook's `matcher`, as Claude Code reads it: absent, empty or `*` matches everything; a name or
 * names joined by `|` (`Bash`, `Edit|Write`) match exactly; anything else is a regular expression
 * searched in the name (`mcp__.*`, `mcp__*`, `^Notebook`). A tool answers to its codey name
 * (`edit_file`), its shown name (`EditFile`) and Claude Code's names for it (`Edit`, `MultiEdit`;
 * `Skill` for skill).
 */
import { CLAUDE_TOOL_NAMES } from '../util/shapes';
import { displayName } from '../util/text';
import { claudeToolName } from './claude-call';

/** Whether a hook applies to something known by `names` (any of them). */
export type Matcher = (names: readonly string[]) => boolean;

/** codey's tool name → Claude Code's names for it; `spawn_agent` is Claude Code's `Task` (and `Agent`). */
const CLAUDE_NAMES_OF: Readonly<Record<string, readonly string[]>> = (() => {
  const out: Record<string, string[]> = { spawn_agent: ['Task', 'Agent'] };
  for (const [claude, codey] of Object.entries(CLAUDE_TOOL_NAMES)) (out[codey] ??= []).push(claude);
  return out;
})();

/** Every name a tool answers to: `edit_file` → edit_file, EditFile, Edit, MultiEdit. */
export function toolNames(tool: string): string[] {
  const claude = claudeToolName(tool);
  return [
    ...new Set([tool, displayName(tool), ...(claude ? [claude] : []), ...(CLAUDE_NAMES_OF[tool] ?? [])]),
  ];
}

const EVERYTHING: Matcher = () => true;

/**
 * The matcher `pattern` means, or a sentence saying why it cannot be read (an invalid regular
 * expression); the hook is then left out.
 */
export function matcherOf(pattern: string | undefined): Matcher | { problem: string } {
  const p = pattern?.trim() ?? '';
  if (p === '' || p === '*') return EVERYTHING;
  if (/^[\w|-]+$/.test(p)) {
    const names = new Set(p.split('|').filter(Boolean));
    return (candidates) => candidates.some((c) => names.has(c));
  }
  let re: RegExp;
  try {
    re = new RegExp(p);
  } catch (err) {
    return {
      problem: `matcher ${JSON.stringify(p)} is not a regular expression (${(err as Error).message})`,
    };
  }
  return (candidates) => candidates.some((c) => re.test(c));
}

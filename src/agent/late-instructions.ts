/**
 * Instructions that arrive when the model first reads or edits a file they cover (a sub-folder's
 * CLAUDE.md, a `paths:` rule): a user-side text block after the tool_results of that response, so
 * the system prompt, the tool list and every earlier message, the cached prefix, stay as they were.
 * What a conversation already holds is read back from its blocks, so a resumed conversation does
 * not get a file twice, and one that was compacted or rewound past it gets it again when needed.
 */
import path from 'node:path';
import { blocksOf } from '../llm/blocks';
import type { MessageParam } from '../llm/types';
import type { LateInstruction } from '../util/shapes';
import type { Agent } from './agent';
import type { ToolResultBlock, ToolUse } from './dispatch';
import { displayPath } from '../tools/workspace';

/** The tools whose path brings the instructions that cover it. */
const FILE_TOOLS: ReadonlySet<string> = new Set(['read_file', 'write_file', 'edit_file']);

/** A late instructions block, as the conversation holds it. */
export interface LateBlock {
  type: 'text';
  text: string;
}

const OPEN = '<instructions path=';
/** The first line of a block: the file's path as a JSON string. */
const FIRST_LINE = /^<instructions path=("(?:[^"\\]|\\.)*")>/;

/** The block's text: the path the conversation knows the file by, what it covers, why it came, the file. */
function blockText(file: LateInstruction, trigger: string): string {
  return (
    `${OPEN}${JSON.stringify(file.path)}>\n` +
    `These instructions apply to ${file.covers}. codey loaded them because you used ${trigger}; ` +
    'follow them for that work (where they disagree with the project instructions, these are nearer and win).\n\n' +
    `${file.text}\n</instructions>`
  );
}

/**
 * The files late instructions blocks in `messages` name (their paths, in the order they came): what
 * the conversation already holds. Only text blocks of user messages count, never a tool's output.
 */
export function lateLoaded(messages: readonly MessageParam[]): string[] {
  const out: string[] = [];
  for (const m of messages) {
    if (m.role !== 'user') continue;
    for (const b of blocksOf(m.content)) {
      const hit = b.type === 'text' ? FIRST_LINE.exec(b.text) : null;
      if (!hit) continue;
      try {
        out.push(JSON.parse(hit[1]) as string);
      } catch {
        // Not one codey wrote.
      }
    }
  }
  return out;
}

/** The absolute path a successful file call touched, or undefined. */
function touched(use: ToolUse, result: ToolResultBlock | undefined, cwd: string): string | undefined {
  if (!FILE_TOOLS.has(use.name) || !result || result.is_error) return undefined;
  const p = (use.input as { path?: unknown } | null)?.path;
  return typeof p === 'string' ? path.resolve(cwd, p) : undefined;
}

/**
 * The late instructions blocks for one response's calls (`results[i]` answers `uses[i]`): for each
 * read_file, write_file and edit_file that succeeded, in order, the files its path brings that the
 * conversation does not hold yet ({@link lateLoaded}), each once, scrubbed of codey's secrets. Each
 * file loaded is a notice ("instructions loaded: …"); one that could not be read is a warning.
 * None without a source (`spec.lateInstructions`). Never rejects.
 */
export async function lateInstructionBlocks(
  agent: Agent,
  uses: readonly ToolUse[],
  results: readonly ToolResultBlock[],
): Promise<LateBlock[]> {
  const source = agent.spec.lateInstructions;
  if (!source) return [];
  const cwd = agent.spec.workspace;
  const shown = (abs: string) => displayPath(cwd, abs);
  const seen = new Set(lateLoaded(agent.conversation.messages));
  const blocks: LateBlock[] = [];
  for (const [i, use] of uses.entries()) {
    const file = touched(use, results[i], cwd);
    if (file === undefined) continue;
    const found = await source
      .find(file, seen, (abs) => agent.spec.policy.keepsOut(abs), cwd)
      .catch(() => ({ files: [], notices: [] }));
    for (const n of found.notices)
      agent.spec.emit({ type: 'notice', level: 'warn', message: n.replace(/^codey: /, '') });
    for (const f of found.files) {
      seen.add(f.path);
      blocks.push({ type: 'text', text: agent.scrub(blockText(f, shown(file))) });
      agent.spec.emit({
        type: 'notice',
        level: 'info',
        message: `instructions loaded: ${shown(f.path)} (for ${shown(file)})`,
      });
    }
  }
  return blocks;
}

/**
 * The hooks of a turn (src/hooks): `UserPromptSubmit` before the person's prompt joins the
 * conversation, `Stop` (or a subagent's `SubagentStop`) when the model ends its turn, `PreCompact`
 * before a compaction. What they print for the person are notice events; what they say to the model
 * joins the conversation as text.
 */
import type { Fired } from '../hooks/hooks';
import { blocksOf } from '../llm/blocks';
import type { ContentBlockParam } from '../llm/types';
import type { Agent } from './agent';
import type { CompactionTrigger } from './events';

/** Most times Stop hooks may send the model back to work in one turn before the turn ends anyway. */
export const MAX_STOP_BLOCKS = 8;

type Prompt = string | ContentBlockParam[];

/** Emit a fired event's notices. */
function tell(agent: Agent, fired: Fired): void {
  for (const message of fired.notices) agent.spec.emit({ type: 'notice', level: 'warn', message });
}

const textOf = (prompt: Prompt): string =>
  typeof prompt === 'string' ? prompt : prompt.map((b) => (b.type === 'text' ? b.text : '')).join('');

/** Where the agent works and who it is, for a payload. */
const place = (agent: Agent) => ({
  cwd: agent.spec.workspace,
  ...(agent.spec.role && { fields: { agent_id: agent.spec.role.agentId } }),
});

/**
 * Run the UserPromptSubmit hooks on the person's prompt (the main agent's turns only): the prompt to
 * send, with what the hooks (and the session's SessionStart hooks, once) said for the model after
 * it, or why a hook refused it.
 */
export async function submittedPrompt(
  agent: Agent,
  prompt: Prompt,
  signal: AbortSignal,
): Promise<{ prompt: Prompt } | { refused: string }> {
  const hooks = agent.spec.hooks;
  if (!hooks || agent.spec.depth > 0) return { prompt };
  const context = hooks.takeStartContext();
  if (hooks.has('UserPromptSubmit')) {
    const fired = await hooks.fire(
      'UserPromptSubmit',
      { prompt: textOf(prompt) },
      { cwd: agent.spec.workspace, signal },
    );
    tell(agent, fired);
    if (fired.blocks.length || fired.stop !== undefined)
      return {
        refused: `a UserPromptSubmit hook refused the prompt: ${[...fired.blocks, ...(fired.stop === undefined ? [] : [fired.stop])].join('\n')}`,
      };
    context.push(...fired.context);
  }
  if (context.length === 0) return { prompt };
  return { prompt: [...blocksOf(prompt), { type: 'text', text: `[hook context]\n${context.join('\n')}` }] };
}

/**
 * Run the Stop hooks (SubagentStop for a subagent) as the model ends its turn: the text that sends
 * it back to work (a hook's exit 2 stderr or block reason), or undefined to end the turn. `active`:
 * a Stop hook already sent it back in this turn (`stop_hook_active`).
 */
export async function goOnAfterStop(
  agent: Agent,
  lastText: string,
  active: boolean,
  signal: AbortSignal,
): Promise<string | undefined> {
  const hooks = agent.spec.hooks;
  const event = agent.spec.depth > 0 ? 'SubagentStop' : 'Stop';
  if (!hooks?.has(event)) return undefined;
  const { cwd, fields } = place(agent);
  const fired = await hooks.fire(
    event,
    { stop_hook_active: active, last_assistant_message: lastText, ...fields },
    { cwd, signal },
  );
  tell(agent, fired);
  if (fired.blocks.length === 0 || fired.stop !== undefined || signal.aborted) return undefined;
  return `[${event} hook]\n${fired.blocks.join('\n')}`;
}

/** Run the PreCompact hooks before a compaction (`trigger` `manual` or `auto`; an overflow is `auto`). */
export async function beforeCompaction(
  agent: Agent,
  trigger: CompactionTrigger,
  focus: string | undefined,
  signal: AbortSignal,
): Promise<void> {
  const hooks = agent.spec.hooks;
  if (!hooks?.has('PreCompact')) return;
  const shown = trigger === 'manual' ? 'manual' : 'auto';
  const { cwd, fields } = place(agent);
  const fired = await hooks.fire(
    'PreCompact',
    { trigger: shown, custom_instructions: focus ?? '', ...fields },
    { on: [shown], cwd, signal },
  );
  tell(agent, fired);
}

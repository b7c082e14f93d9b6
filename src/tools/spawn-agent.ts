import * as z from 'zod';
import { DEFAULT_LIST_BUDGET, fitListing } from '../skills/budget';
import { defineTool, ToolError, type Tool } from './tool';
import { capLine } from './truncate';
import { withCommas } from '../util/text';

/** What the parent asks of a child: the whole brief, a label for the person, a definition by name. */
export interface SpawnRequest {
  task: string;
  /** 3–6 words for the person; default the start of the task. */
  description: string;
  /** The definition to use (`AgentChoice.name`); absent: a general child. */
  agent?: string;
}

/** How a child's run ended, as `spawn_agent` reports it. */
export interface SpawnReport {
  agentId: string;
  /** The child's final text (after an interrupt or a failure: the last it wrote). */
  text: string;
  /** One line: requests, tool calls by name, files written or edited, tokens. */
  footer: string;
  /** Set when the child did not finish: why (an API error, max turns, interrupted). */
  failure?: string;
}

/** A definition the model may pick, as `spawn_agent`'s description lists it. */
export interface AgentChoice {
  name: string;
  description: string;
}

const schema = z.object({
  task: z
    .string()
    .min(1)
    .describe(
      'The whole brief for the subagent: it sees nothing of this conversation, so include the goal, the paths, what you already know and what to report back.',
    ),
  description: z
    .string()
    .optional()
    .describe('A 3-6 word label for the person, e.g. "Find the config loader".'),
  agent: z
    .string()
    .optional()
    .describe(
      'The name of an agent definition listed in this description, if any; omit for a general subagent.',
    ),
});

const POLICY = [
  'Start a subagent: a separate agent with its own context and the same tools, which works on `task` and returns its final message as the result.',
  'Use it for independent work that needs many reads or searches whose detail you do not need (exploring a codebase, finding where something is done), or for several independent tasks at once: several spawn_agent calls in one message run in parallel.',
  'The subagent sees nothing of this conversation: put everything it needs in `task`. Its final message is all you get back, so say what the report should contain.',
  'Do not use it for a single quick read or search, or for work that needs the person.',
].join(' ');

function describeAgents(agents: readonly AgentChoice[], budget: number): string {
  if (!agents.length) return POLICY;
  const fitted = fitListing(
    agents.map((a) => ({ name: a.name, description: capLine(a.description) })),
    budget,
  );
  const more = fitted.unlisted
    ? `\n(${withCommas(fitted.unlisted)} more definitions are not listed here: an \`agent\` name that is not listed gets the list of them all.)`
    : '';
  return `${POLICY}\n\nAgent definitions (pass the name as \`agent\`):\n${fitted.lines.join('\n')}${more}`;
}

/** The label shown for a call: the description, else the first words of the task. */
function agentLabel(args: { task: string; description?: string }): string {
  const label = args.description?.trim() || args.task.trim().split(/\s+/).slice(0, 6).join(' ');
  return capLine(label.replace(/\s+/g, ' '));
}

/** The type of a subagent that runs no agent definition, as Claude Code's rules name it (`Task(general-purpose)`). */
const GENERAL_AGENT = 'general-purpose';

/**
 * `spawn_agent` (kind `agent`): runs a child through `spawn` (built by the agent layer; this tool
 * never imports it) and returns the child's report and a footer line. Never read-only; the task is
 * not a rememberable detail, so only "always for this tool" is offered beyond once.
 */
export function spawnAgentTool(
  spawn: (request: SpawnRequest, ctx: Parameters<Tool['run']>[1]) => Promise<SpawnReport>,
  agents: readonly AgentChoice[],
  budget = DEFAULT_LIST_BUDGET,
): Tool {
  const names = new Set(agents.map((a) => a.name));
  return defineTool({
    name: 'spawn_agent',
    displayName: 'Agent',
    kind: 'agent',
    description: describeAgents(agents, budget),
    schema,
    shows: 'subagent',
    describe: (args) => ({
      summary: `${agentLabel(args)}${args.agent ? ` (${args.agent})` : ''}`,
      detail: args.task,
      agentType: args.agent ?? GENERAL_AGENT,
      rememberable: false,
    }),
    check: (args) => {
      if (args.agent !== undefined && !names.has(args.agent)) {
        const list = agents.length ? `; the definitions are: ${[...names].join(', ')}` : '; there are none';
        throw new ToolError(
          `no agent definition named "${args.agent}"${list}. Omit agent for a general subagent.`,
          'not_found',
        );
      }
    },
    run: async (args, ctx) => {
      const description = agentLabel(args);
      const report = await spawn(
        { task: args.task, description, ...(args.agent ? { agent: args.agent } : {}) },
        ctx,
      );
      const text = report.text.trim() || '(the subagent wrote no text)';
      const output = report.failure
        ? `The subagent did not finish: ${report.failure}.\nWhat it had reported so far:\n${text}\n\n${report.footer}`
        : `${text}\n\n${report.footer}`;
      return {
        output,
        isError: report.failure !== undefined,
        ...(report.failure ? { code: 'failed' as const } : {}),
        title: report.failure ? `stopped: ${report.failure}` : report.footer,
        display: { kind: 'subagent', agentId: report.agentId, task: args.task },
      };
    },
  });
}

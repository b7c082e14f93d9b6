import { isAbsolute, relative, resolve } from 'node:path';
import { decider } from '../agent/decide';
import type { Agent } from '../agent/agent';
import type { AgentEvent } from '../agent/events';
import type { CommandSpec } from '../tui/commands/commands';
import { childModel } from '../agent/subagent';
import { describe } from '../approval/policy';
import { rulesInForce } from './wiring';
import { type CustomCommand, expandCommand } from '../skills/commands';
import { inlineCommand } from '../skills/command-inline';
import { bashTool, DEFAULT_BASH_TIMEOUT_MS, formatOutcome, runBash } from '../tools/bash';
import { headTail } from '../tools/truncate';
import { readTextFile } from '../util/read-text';

/** Most bytes of one `@path` file a command inlines; the text is then capped as read_file's output is. */
const MAX_INLINED_FILE_BYTES = 1024 * 1024;

/** What a command's turn runs with besides its prompt: its model and its `allowed-tools` rules. */
export interface CommandTurn {
  model?: string;
  allow: readonly string[];
}

/** The session as its command entries need it (a `CodeySession` is one). */
export interface CommandSession {
  agent: Agent;
  commands: readonly CustomCommand[];
  sessionModel: string;
  modelAliases: Readonly<Record<string, string>>;
  projectTrusted: boolean;
  commandTurns: Map<string, CommandTurn>;
  events: { emit(e: AgentEvent): void };
}

/** The session as a command file's preparation needs it. */
export interface CommandHost {
  agent: Agent;
  /** The `model` setting, for a family alias without an entry in `modelAliases`. */
  sessionModel: string;
  modelAliases: Readonly<Record<string, string>>;
  /** Whether the person trusts this project: a repository's `allowed-tools` count only then. */
  projectTrusted: boolean;
  /** One line for the person. */
  notice(message: string): void;
}

/**
 * The model and rules a command's turn runs with: `model` through the alias map (a repository's id
 * only when the session uses it, as for agent definitions); `allowed-tools` of the person's own
 * file always, of a repository's only once the project is trusted (else a notice says so).
 */
function commandTurn(c: CustomCommand, host: CommandHost): CommandTurn {
  let model: string | undefined;
  if (c.model) {
    const got = childModel(c.model, host.agent.spec.model, host.sessionModel, c.scope, host.modelAliases);
    if (got.notice) host.notice(`/${c.name}: ${got.notice.replace('agent definition', 'command')}`);
    if (got.model !== host.agent.spec.model) model = got.model;
  }
  const problems: string[] = [];
  const known = [
    ...host.agent.registry.list().map((t) => t.name),
    ...(host.agent.spec.hostedTools ?? []).map((t) => String(t.name)),
  ];
  const rules = c.allowedTools?.length ? rulesInForce({ allow: c.allowedTools }, known, problems).allow : [];
  for (const p of problems) host.notice(`/${c.name}: allowed-tools: ${p.replace(/^codey: /, '')}`);
  if (rules.length && c.scope === 'project' && !host.projectTrusted) {
    host.notice(
      `/${c.name}: its allowed-tools (${rules.join(', ')}) hold once you trust this project; asking as usual`,
    );
    return { ...(model && { model }), allow: [] };
  }
  return { ...(model && { model }), allow: rules };
}

/**
 * The decision for one `` !`cmd` `` of a command file: the one decision of a bash call of that
 * command (`decider`: deny rules, allow rules, then the person; with no one to ask, refused), its
 * refusal recorded as any other. Undefined: it may run; else the sentence that takes the output's place.
 */
async function decideBang(
  command: string,
  agent: Agent,
  signal: AbortSignal,
  id: string,
): Promise<string | undefined> {
  const use = { id, name: 'bash', input: { command } };
  const decide = decider(
    {
      policy: agent.spec.policy,
      questions: agent.spec.questions,
      requestApproval: agent.spec.requestApproval,
      emit: agent.spec.emit,
      denials: agent.spec.totals.denials,
      scrub: agent.scrub,
    },
    use,
    signal,
  );
  const decided = await decide(describe(bashTool, { command }, { cwd: agent.spec.workspace }));
  return 'refused' in decided ? `[\`${command}\` was not run. ${decided.refused.text}]` : undefined;
}

/**
 * A command's prompt as it is sent: `$ARGUMENTS`, `$1`… filled, each `` !`cmd` `` run through the
 * bash decision and the process runner (its output, scrubbed and capped, in its place; a refusal
 * says so there), each `@path` inside the workspace (and not kept out by a deny rule) inlined after
 * it, capped as read_file's output is. `turn.allow` holds while the commands are decided.
 */
async function commandPrompt(
  c: CustomCommand,
  args: string,
  host: CommandHost,
  turn: CommandTurn,
  signal: AbortSignal,
): Promise<string> {
  const agent = host.agent;
  const release = agent.spec.policy.hold(turn.allow);
  let bangs = 0;
  try {
    return await inlineCommand(expandCommand(c.body, args), {
      run: async (command) => {
        const refused = await decideBang(command, agent, signal, `command-${c.name}-${++bangs}`);
        if (refused) return refused;
        const sandbox = agent.registry.sandboxFor(agent.spec.workspace, false);
        const o = await runBash(command, {
          cwd: agent.spec.workspace,
          env: agent.registry.env,
          timeoutMs: DEFAULT_BASH_TIMEOUT_MS,
          signal,
          ...(sandbox && { sandbox }),
        });
        return headTail(agent.scrub(formatOutcome(o, DEFAULT_BASH_TIMEOUT_MS))).trimEnd();
      },
      read: async (ref) => {
        if (ref.startsWith('~')) return undefined;
        const abs = resolve(agent.spec.workspace, ref);
        const rel = relative(agent.spec.workspace, abs);
        if (!rel || rel.startsWith('..') || isAbsolute(rel)) return undefined;
        if (agent.spec.policy.keepsOut(abs)) return { path: rel, text: '[left out by a deny rule]' };
        const got = await readTextFile(abs, {
          maxBytes: MAX_INLINED_FILE_BYTES,
          inside: agent.spec.workspace,
        });
        return 'text' in got ? { path: rel, text: headTail(agent.scrub(got.text)) } : undefined;
      },
    });
  } finally {
    release();
  }
}

/**
 * The custom commands as registry entries (a sub-folder's command under its `/dir:name` and, when
 * unique, its short name): `/NAME args` sends the body with `$ARGUMENTS`, `$1`… filled, `` !`cmd` ``
 * run and `@path` inlined (`commandPrompt`) as the person's message, its turn on the command's model
 * and rules. Not while a turn runs: a prompt waits its turn.
 */
export function customCommandSpecs(
  commands: readonly CustomCommand[],
  session: CommandSession,
): CommandSpec[] {
  return commands.flatMap((c) =>
    [c.name, ...(c.aliases ?? [])].map((name) => ({
      name: `/${name.toLowerCase()}`,
      ...(c.argumentHint && { args: c.argumentHint }),
      description: c.description ?? `custom command (${c.scope})`,
      whileBusy: false,
      run: async ({ args, signal }: { args: string; signal: AbortSignal }) => ({
        kind: 'send' as const,
        prompt: await prepareCommand(c, args, session, signal),
      }),
    })),
  );
}

/** The command a prompt starts with (`/NAME args`, by a name or an alias, in any case), and its args. */
function commandOf(
  prompt: string,
  commands: readonly CustomCommand[],
): { command: CustomCommand; args: string } | undefined {
  const m = /^\/([A-Za-z0-9][A-Za-z0-9_.:-]*)(?:\s+([\s\S]*))?$/.exec(prompt.trimStart());
  if (!m) return undefined;
  const want = m[1].toLowerCase();
  const command = commands.find((c) => [c.name, ...(c.aliases ?? [])].some((n) => n.toLowerCase() === want));
  return command ? { command, args: m[2] ?? '' } : undefined;
}

/**
 * `-p "/NAME args"`: the prompt with a custom command's body expanded (`commandOf`, then
 * `prepareCommand`) when its first word names one, else the prompt as given (a path such as
 * `/etc/hosts` stays text).
 */
export async function expandPrintPrompt(
  prompt: string,
  session: CommandSession,
  signal: AbortSignal,
): Promise<string> {
  const found = commandOf(prompt, session.commands);
  return found ? prepareCommand(found.command, found.args, session, signal) : prompt;
}

/** {@link commandPrompt} for `session`, with the command's turn settings kept for its `run`. */
async function prepareCommand(
  c: CustomCommand,
  args: string,
  session: CommandSession,
  signal: AbortSignal,
): Promise<string> {
  const host = {
    agent: session.agent,
    sessionModel: session.sessionModel,
    modelAliases: session.modelAliases,
    projectTrusted: session.projectTrusted,
    notice: (message: string) => session.events.emit({ type: 'notice', level: 'warn', message }),
  };
  const turn = commandTurn(c, host);
  const prompt = await commandPrompt(c, args, host, turn, signal);
  if (turn.model || turn.allow.length) session.commandTurns.set(prompt, turn);
  return prompt;
}

/**
 * Slash commands as data (DESIGN.md, "Commands"): one registry of {@link CommandSpec}s from which
 * /help, Tab completion, the busy rule and running a command all read. The built-ins are in
 * `builtin-commands.ts`; other sources (custom command files, skills, MCP prompts: the CLI loads
 * them and hands them over as entries) join through {@link commandRegistry}. A command reaches the
 * session only through its {@link CommandContext}; the app turns the outcome into transcript items.
 */
import type { Usage } from '../../agent/events';
import { BUILTIN_COMMANDS } from './builtin-commands';
import type { CommandOutcome, CommandSpec } from './command-spec';
import type { SessionPort } from './session-port';
import { formatTokens } from '../text/format';

export type { CommandContext, CommandOutcome, CommandSpec, PickOutcome } from './command-spec';

/**
 * The one list of commands: the entries of `sources` in order, where the first entry of a name
 * wins (pass the built-ins first, so that no later source replaces one).
 */
export function commandRegistry(...sources: (readonly CommandSpec[])[]): readonly CommandSpec[] {
  const seen = new Set<string>();
  const list = sources.flat().filter((c) => !seen.has(c.name) && Boolean(seen.add(c.name)));
  return Object.freeze(list);
}

/** The registry of the built-in commands alone (a session's own registry adds custom commands). */
export const COMMANDS = commandRegistry(BUILTIN_COMMANDS);

/** Commands whose name starts with what is typed; empty once an argument is being typed. */
export function matchCommands(value: string, commands = COMMANDS): CommandSpec[] {
  if (!value.startsWith('/') || /\s/.test(value)) return [];
  return commands.filter((c) => c.name.startsWith(value.toLowerCase()));
}

/** The command `word` names: its exact name, else the one name it begins ("/he" is /help). */
export function findCommand(word: string, commands = COMMANDS): CommandSpec | undefined {
  const exact = commands.find((c) => c.name === word.toLowerCase());
  if (exact) return exact;
  const matches = matchCommands(word, commands);
  return matches.length === 1 ? matches[0] : undefined;
}

/**
 * Whether `text` is a command line: it starts with `/` and its first word is a command's, or holds
 * no other `/`. A path (`/tmp/out.txt is empty`) is a message, not an unknown command.
 */
export function isCommandLine(text: string, commands = COMMANDS): boolean {
  if (!text.startsWith('/')) return false;
  const word = text.trim().split(/\s+/)[0];
  return !word.slice(1).includes('/') || findCommand(word, commands) !== undefined;
}

/**
 * Tab completion: the one match (with a space when it takes arguments), else the longest common
 * prefix of the matches; undefined when nothing would change.
 */
export function completeCommand(value: string, commands = COMMANDS): string | undefined {
  const matches = matchCommands(value, commands);
  if (matches.length === 0) return undefined;
  if (matches.length === 1) {
    const done = matches[0].args ? `${matches[0].name} ` : matches[0].name;
    return done === value ? undefined : done;
  }
  let prefix = matches[0].name;
  for (const m of matches) while (!m.name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix.length > value.length ? prefix : undefined;
}

/**
 * Runs one command line (starting with `/`) against `session`. With `busy` (a turn is running), a
 * command whose `whileBusy` is false is refused. Never rejects: failures come back as `error`.
 */
export async function executeCommand(
  line: string,
  session: SessionPort,
  opts: { busy?: boolean; commands?: readonly CommandSpec[]; signal?: AbortSignal } = {},
): Promise<CommandOutcome> {
  const commands = opts.commands ?? COMMANDS;
  const [word, ...rest] = line.trim().split(/\s+/);
  const command = findCommand(word, commands);
  if (!command) return { kind: 'error', message: `Unknown command ${word}; /help lists the commands.` };
  if (opts.busy && !command.whileBusy) {
    return {
      kind: 'error',
      message: `${command.name} waits for the running turn: press Esc to interrupt it first.`,
    };
  }
  try {
    const signal = opts.signal ?? new AbortController().signal;
    return await command.run({ args: rest.join(' '), session, commands, signal });
  } catch (err) {
    return { kind: 'error', message: `${command.name} failed: ${(err as Error).message ?? String(err)}` };
  }
}

/** Compact token figure for the status line: "12.3k in (85% cached) · 1.2k out". */
export function tokenSummary(usage: Usage | undefined): string {
  if (!usage) return '0 in · 0 out';
  const input = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
  const share = input > 0 ? Math.round((usage.cache_read_input_tokens / input) * 100) : 0;
  return `${formatTokens(input)} in (${share}% cached) · ${formatTokens(usage.output_tokens)} out`;
}

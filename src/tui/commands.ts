/**
 * Slash commands: their names for completion, and what each does to the session. Runs against the
 * {@link Controller} only; the app turns the outcome into transcript items.
 */
import type { Usage } from '../agent/events';
import type { Controller, Price } from './controller';
import { formatDollars, formatTokens } from './format';

export interface CommandSpec {
  name: string;
  /** Argument hint, e.g. "NAME" or "[NAME]". */
  args?: string;
  description: string;
}

export const COMMANDS: readonly CommandSpec[] = [
  { name: '/help', description: 'show commands and keys' },
  { name: '/clear', description: 'start a new conversation' },
  { name: '/model', args: 'NAME', description: 'use another model' },
  { name: '/cost', description: 'tokens used so far, and their price' },
  { name: '/tools', description: "this session's tools, and which ones ask first" },
  { name: '/worktree', args: '[NAME]', description: 'move the session into a new git worktree and branch' },
  { name: '/exit', description: 'quit' },
];

/** Commands whose name starts with what is typed; empty once an argument is being typed. */
export function matchCommands(value: string): CommandSpec[] {
  if (!value.startsWith('/') || /\s/.test(value)) return [];
  return COMMANDS.filter((c) => c.name.startsWith(value.toLowerCase()));
}

/**
 * Tab completion: the one match (with a space when it takes arguments), else the longest common
 * prefix of the matches; undefined when nothing would change.
 */
export function completeCommand(value: string): string | undefined {
  const matches = matchCommands(value);
  if (matches.length === 0) return undefined;
  if (matches.length === 1) {
    const done = matches[0].args ? `${matches[0].name} ` : matches[0].name;
    return done === value ? undefined : done;
  }
  let prefix = matches[0].name;
  for (const m of matches) while (!m.name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix.length > value.length ? prefix : undefined;
}

export type CommandOutcome =
  { kind: 'info'; title?: string; lines: string[] } | { kind: 'error'; message: string } | { kind: 'exit' };

export const KEY_HINTS = [
  'Enter send · \\ then Enter, Shift+Enter or Ctrl+J new line',
  'Up/Down history · Tab completes a /command',
  'Esc interrupt the running turn · Ctrl+C clear the input, twice to quit',
];

function helpLines(): string[] {
  const width = Math.max(...COMMANDS.map((c) => (c.args ? `${c.name} ${c.args}` : c.name).length));
  const cmds = COMMANDS.map(
    (c) => `${(c.args ? `${c.name} ${c.args}` : c.name).padEnd(width)}  ${c.description}`,
  );
  return [...cmds, '', ...KEY_HINTS];
}

/** Dollar cost of `usage` at `price` (per million tokens). */
export function costOf(usage: Usage, price: Price): number {
  return (
    (usage.input_tokens * price.inputPerMTok +
      usage.output_tokens * price.outputPerMTok +
      usage.cache_read_input_tokens * price.cacheReadPerMTok +
      usage.cache_creation_input_tokens * price.cacheWritePerMTok) /
    1_000_000
  );
}

function costLines(
  usage: Usage,
  price: Price | undefined,
  model: string,
  spent?: { dollars: number; unpriced: string[] },
): string[] {
  const n = (x: number) => x.toLocaleString('en-US');
  const lines = [
    `input tokens:        ${n(usage.input_tokens)}`,
    `output tokens:       ${n(usage.output_tokens)}`,
    `cache read tokens:   ${n(usage.cache_read_input_tokens)}`,
    `cache write tokens:  ${n(usage.cache_creation_input_tokens)}`,
  ];
  if (usage.web_search_requests > 0) lines.push(`web searches:        ${n(usage.web_search_requests)}`);
  if (spent) {
    const unknown = spent.unpriced.length ? `; no price known for ${spent.unpriced.join(', ')}` : '';
    lines.push(
      `cost:                ${formatDollars(spent.dollars)} (each request at its model's price${unknown})`,
    );
    return lines;
  }
  lines.push(
    price
      ? `cost:                ${formatDollars(costOf(usage, price))} (${model} at $${price.inputPerMTok}/$${price.outputPerMTok} per MTok in/out)`
      : `cost:                unknown (no price known for ${model})`,
  );
  return lines;
}

/** Runs one command line (starting with `/`). Never rejects: failures come back as `error`. */
export async function executeCommand(line: string, controller: Controller): Promise<CommandOutcome> {
  const [word, ...rest] = line.trim().split(/\s+/);
  const arg = rest.join(' ');
  const matches = matchCommands(word);
  // An unambiguous prefix runs its command ("/he" is /help).
  const name = COMMANDS.some((c) => c.name === word) ? word : matches.length === 1 ? matches[0].name : word;
  switch (name) {
    case '/help':
      return { kind: 'info', title: 'Commands', lines: helpLines() };
    case '/clear':
      controller.clear();
      return { kind: 'info', lines: ['Started a new conversation.'] };
    case '/model':
      if (!arg) return { kind: 'info', lines: [`Model: ${controller.model}. Change it with /model NAME.`] };
      controller.setModel(arg);
      return { kind: 'info', lines: [`Model set to ${controller.model}.`] };
    case '/cost':
      return {
        kind: 'info',
        title: 'Usage',
        lines: costLines(controller.usage(), controller.price(), controller.model, controller.cost?.()),
      };
    case '/tools': {
      const tools = controller.tools();
      const width = Math.max(0, ...tools.map((t) => t.displayName.length));
      return {
        kind: 'info',
        title: 'Tools',
        lines: tools.map(
          (t) => `${t.displayName.padEnd(width)}  ${t.asks ? 'asks first' : 'runs without asking'}`,
        ),
      };
    }
    case '/worktree':
      try {
        const wt = await controller.worktree(arg || undefined);
        return { kind: 'info', lines: [`Now working in ${wt.path} on branch ${wt.branch}.`] };
      } catch (err) {
        return { kind: 'error', message: `Could not create a worktree: ${(err as Error).message}` };
      }
    case '/exit':
      return { kind: 'exit' };
    default:
      return { kind: 'error', message: `Unknown command ${word}; /help lists the commands.` };
  }
}

/** Compact token figure for the status line: "12.3k in (85% cached) · 1.2k out". */
export function tokenSummary(usage: Usage | undefined): string {
  if (!usage) return '0 in · 0 out';
  const input = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
  const share = input > 0 ? Math.round((usage.cache_read_input_tokens / input) * 100) : 0;
  return `${formatTokens(input)} in (${share}% cached) · ${formatTokens(usage.output_tokens)} out`;
}

/**
 * Settings a project file holds back until the person trusts it (src/config/trust.ts): asked in the
 * terminal before the interactive session starts, never in `-p` (which says how to trust instead).
 */
import type { HeldSettings } from '../config/resolve';
import { isTrusted, recordTrust } from '../config/trust';
import { readRule } from '../approval/rule-grammar';
import { hiddenWarning, showHidden } from '../util/hidden-chars';
import { escapeJsonControls } from '../util/terminal-text';
import { askLine, isYes } from './ask';
import { HOOK_WHEN } from '../hooks/events';
import type { HookEvent, HooksSetting } from '../util/shapes';

type Env = Record<string, string | undefined>;

/** Whether the person already trusts `held`'s file with exactly its present settings. */
export function trustedAlready(held: HeldSettings, env: Env): Promise<boolean> {
  return isTrusted(env, held.file, held.digest);
}

/** One setting the file would bring: what it is, as written, and what it would let happen. */
export interface TrustLine {
  /** `allow \`bash\``: the key and one value (a list gives a line per item), hidden characters escaped. */
  what: string;
  /** Plain words: "every command would run without asking". */
  means: string;
  /** How many characters that draw nothing or reorder text `what` shows escaped. */
  hidden: number;
}

const WHOLE_TOOL: Record<string, string> = {
  bash: 'every command would run without asking',
  write_file: 'any file in the workspace could be written without asking',
  edit_file: 'any file in the workspace could be edited without asking',
  web_fetch: 'any URL would be fetched without asking',
  web_search: 'any web search would be sent without asking',
};

const code = (text: string) => `\`${text}\``;

/** What an `allow` rule would let happen, in plain words. */
function ruleMeans(text: string): string {
  const read = readRule(text);
  if (!('rule' in read)) return 'not a rule codey can read: it would be ignored';
  const { tool, tools, match } = read.rule;
  const shown = showHidden(match?.value ?? '').text;
  if (!match)
    return tools.map((t) => WHOLE_TOOL[t] ?? `every ${code(t)} call would run without asking`).join('; ');
  switch (match.kind) {
    case 'domain':
      return `any page on ${shown} or its subdomains would be fetched without asking`;
    case 'prefix':
      return tool === 'bash'
        ? `any command starting with ${code(shown)} would run without asking`
        : `any ${code(tool)} call starting with ${code(shown)} would run without asking`;
    case 'wildcard':
      return tool === 'bash'
        ? `any command matching ${code(shown)} (\`*\` is any text) would run without asking`
        : `any ${code(tool)} call matching ${code(shown)} (\`*\` is any text) would run without asking`;
    case 'path':
      return `${tools.map(code).join(' and ')} on paths matching ${code(shown)} would run without asking`;
    case 'agent':
      return `subagents of type ${code(shown)} would start without asking`;
    case 'exact':
      return tool === 'bash'
        ? 'this one command would run without asking'
        : `this one ${code(tool)} call would run without asking`;
  }
}

/** What a held setting other than `allow` would let happen, in plain words. */
function settingMeans(key: string, value: unknown): string {
  const v = showHidden(JSON.stringify(value) ?? String(value)).text;
  switch (key) {
    case 'web_provider':
      return `web searches would go to ${v}: the model's search words are sent there`;
    case 'web_fetch':
      return `web pages would be fetched the ${v} way`;
    case 'web_max_uses':
      return `up to ${v} hosted web searches per request`;
    case 'web_allowed_domains':
      return `web tools could reach ${v}`;
    case 'add_dirs':
      return `the file tools could read and change files in ${showHidden(String(Array.isArray(value) ? value[0] : value)).text} as in the workspace`;
    case 'skills':
      return 'skills would load: their instructions reach the model';
    case 'agents':
      return 'the model could start subagents';
    case 'max_agent_depth':
      return `subagents could start their own, ${v} levels deep`;
    case 'mcp_servers':
      return serverMeans(value);
    default:
      return `${code(key)} would be ${v}, as if your own config said so`;
  }
}

/** What starting one MCP server of `{ NAME: entry }` would do, in plain words. */
function serverMeans(value: unknown): string {
  const [name, entry] = Object.entries((value ?? {}) as Record<string, Record<string, unknown>>)[0] ?? [
    '?',
    {},
  ];
  const shown = (v: unknown) => showHidden(typeof v === 'string' ? v : JSON.stringify(v)).text;
  if (typeof entry?.url === 'string')
    return `the MCP server ${shown(name)} would be reached at ${shown(entry.url)}: the model's calls go there`;
  const argv = [entry?.command, ...(Array.isArray(entry?.args) ? entry.args : [])].map(shown).join(' ');
  return `the MCP server ${shown(name)} would start: ${code(argv)} runs with your permissions`;
}

/** The names of the MCP servers `held` keeps from starting. */
export function heldServers(held: HeldSettings): string[] {
  return held.entries.flatMap((e) => (e.key === 'mcp_servers' ? Object.keys(e.value as object) : []));
}

/** For `-p`: which project MCP servers did not start, and how to start them; undefined when none. */
export function heldServersNotice(held: HeldSettings): string | undefined {
  const names = heldServers(held);
  if (!names.length) return undefined;
  return `codey: project MCP servers not started: ${names.map((n) => showHidden(n).text).join(', ')} (${held.files.join(', ')}); pass --mcp-trust to start them, or run codey here once and trust the project`;
}

/** A line per hook command: its event, its matcher and the command whole, and when it would run. */
function hookLines(setting: HooksSetting): TrustLine[] {
  return Object.entries(setting).flatMap(([event, groups]) =>
    groups.flatMap((g) =>
      g.hooks.map((h) => {
        const shown = showHidden(escapeJsonControls(h.command ?? `(type ${h.type})`));
        const matcher = g.matcher ? ` ${code(showHidden(escapeJsonControls(g.matcher)).text)}` : '';
        const when = HOOK_WHEN[event as HookEvent] as string | undefined;
        return {
          what: `hooks ${showHidden(escapeJsonControls(event)).text}${matcher} ${code(shown.text)}`,
          means: when
            ? `this command would run on your machine ${when}`
            : 'not an event codey knows: it would not run',
          hidden: shown.hidden,
        };
      }),
    ),
  );
}

/** A line per `allowed-tools` rule of command `name` (`/deploy`): what it lets happen while that command runs. */
function commandLines(name: string, rules: readonly string[]): TrustLine[] {
  return rules.map((rule) => {
    const shown = showHidden(escapeJsonControls(rule));
    const command = showHidden(name).text;
    return {
      what: `${command} allowed-tools ${code(shown.text)}`,
      means: `while ${command} runs, ${ruleMeans(rule)}`,
      hidden: shown.hidden,
    };
  });
}

/** Each setting the file would bring, one per `allow` rule, list item, hook command or MCP server, whole. */
export function trustLines(held: HeldSettings): TrustLine[] {
  return held.entries.flatMap(({ key, value, command }) => {
    if (key === 'hooks') return hookLines(value as HooksSetting);
    if (command) return commandLines(command, value as string[]);
    const items =
      key === 'mcp_servers' && value && typeof value === 'object'
        ? Object.entries(value).map(([n, v]) => ({ [n]: v as unknown }))
        : Array.isArray(value)
          ? (value as unknown[])
          : [value];
    return items.map((item) => {
      const raw = typeof item === 'string' && Array.isArray(value) ? item : JSON.stringify(item);
      const shown = showHidden(escapeJsonControls(raw ?? String(item)));
      const means =
        key === 'allow' && typeof item === 'string'
          ? ruleMeans(item)
          : settingMeans(key, Array.isArray(value) ? [item] : item);
      return { what: `${key} ${code(shown.text)}`, means, hidden: shown.hidden };
    });
  });
}

/**
 * `text` in rows of at most `width` columns (characters), the rows after the first indented by
 * `indent`; a word longer than a row is broken, so nothing is cut.
 */
export function wrapRows(text: string, width: number, indent: string): string[] {
  const lead = /^ */.exec(text)?.[0] ?? '';
  const rows: string[] = [];
  let row = '';
  const room = () => Math.max(10, width - (rows.length ? indent : lead).length);
  for (const word of text.slice(lead.length).split(' ')) {
    let w = word;
    if (row && [...row].length + 1 + [...w].length > room()) {
      rows.push(row);
      row = '';
    }
    row = row ? `${row} ${w}` : w;
    while ([...row].length > room()) {
      const chars = [...row];
      rows.push(chars.slice(0, room()).join(''));
      row = chars.slice(room()).join('');
      w = row;
    }
  }
  if (row || !rows.length) rows.push(row);
  return rows.map((r, i) => (i ? indent + r : lead + r));
}

/**
 * The question: what the file asks for (every setting whole, one per line, with what it would let
 * happen), what trusting means, and the default (no). `width`: the terminal's columns.
 */
export function trustQuestion(held: HeldSettings, width = 80): string {
  const lines = trustLines(held);
  const hidden = lines.reduce((n, l) => n + l.hidden, 0);
  return [
    `codey: ${held.files.join(' and ')} ask${held.files.length === 1 ? 's' : ''} for settings that give this repository more than your own config does:`,
    ...lines.flatMap((l) => wrapRows(`  ${l.what}: ${l.means}`, width, '      ')),
    ...(hidden ? [`  ${hiddenWarning(hidden)}`] : []),
    `Trust ${held.files.length === 1 ? 'this file' : 'these files'}? Their settings then apply here (you are asked again whenever they change). [y/N] `,
  ].join('\n');
}

/** After a no: what stays ignored, and that the question comes again. */
export function notTrusted(held: HeldSettings): string {
  const keys = [...new Set(held.values.map((v) => v.slice(0, v.indexOf(':'))))].join(', ');
  return `codey: not trusted: ${held.files.join(' and ')}'s ${keys} ignored for this session; codey asks again next time`;
}

/** For `-p`: the held settings are ignored; this line says how to accept them. */
export function trustHint(held: HeldSettings): string {
  return `codey: to use the settings of ${held.files.join(' and ')} above, run \`codey trust grant\` here (or run codey here once and answer yes when it asks)`;
}

/**
 * Ask whether to trust `held`'s file; a yes is remembered for exactly these settings.
 * @returns `yes` when the person said yes (stored, or for this run when it could not be stored),
 * `no` for any other answer or end of input, `quit` for Ctrl+C.
 */
export async function askTrust(
  held: HeldSettings,
  env: Env,
  warn: (line: string) => void,
): Promise<'yes' | 'no' | 'quit'> {
  const answer = await askLine(trustQuestion(held, process.stderr.columns || 80));
  if (answer === 'interrupted') return 'quit';
  if (!isYes(answer)) return 'no';
  try {
    await recordTrust(env, held.file, held.digest);
  } catch (err) {
    warn(
      `codey: could not remember the answer (${(err as Error).message}); the file's settings apply for this run only`,
    );
  }
  return 'yes';
}

/** The built-in slash commands, in the order /help lists them. Adding one is one entry here. */
import type { Usage } from '../../agent/events';
import type { CommandOutcome, CommandSpec } from './command-spec';
import { MODEL_CHOICES } from '../wizard/options';
import type { SkillInfo, Spend, ThemeName } from './session-port';
import { mcpLines } from './mcp-lines';
import { commandLabel, formatDollars } from '../text/format';
import { inputKeyLines } from '../terminal/input-keys';
import { REWIND_COMMAND } from './rewind-command';
import { STATUS_COMMAND } from './status-command';
import { withCommas } from '../../util/text';

/** Every command with its argument hint and description, aligned, then the keys. */
function helpLines(commands: readonly CommandSpec[]): string[] {
  const width = Math.max(...commands.map((c) => commandLabel(c).length));
  return [
    ...commands.map((c) => `${commandLabel(c).padEnd(width)}  ${c.description}`),
    '',
    'Keys',
    ...inputKeyLines(),
  ];
}

function costLines(usage: Usage, spent: Spend): string[] {
  const n = (x: number) => withCommas(x);
  const lines = [
    `input tokens:        ${n(usage.input_tokens)}`,
    `output tokens:       ${n(usage.output_tokens)}`,
    `cache read tokens:   ${n(usage.cache_read_input_tokens)}`,
    `cache write tokens:  ${n(usage.cache_creation_input_tokens)}`,
  ];
  if (usage.web_search_requests > 0) lines.push(`web searches:        ${n(usage.web_search_requests)}`);
  const unpriced = spent.unpriced.join(', ');
  // Nothing priced but something used: "$0.0000" would read as free.
  const cost =
    spent.unpriced.length > 0 && spent.dollars === 0
      ? `price unknown (no price known for ${unpriced})`
      : `${formatDollars(spent.dollars)} (each request at its model's price${unpriced ? `; price unknown for ${unpriced}` : ''})`;
  lines.push(`cost:                ${cost}`);
  return lines;
}

/** Longest description /skills shows on one line (characters); the rest is cut with `…`. */
const SKILL_DESCRIPTION_SHOWN = 200;

function skillLines(skills: readonly SkillInfo[]): string[] {
  if (skills.length === 0) {
    return [
      'No skills loaded. A skill is a folder with a SKILL.md in .codey/skills, .agents/skills or',
      '.claude/skills (of the workspace or your config); see README, "Skills".',
    ];
  }
  const lines: string[] = [];
  for (const s of skills) {
    const flat = s.description.replace(/\s+/g, ' ').trim();
    const shown =
      [...flat].length > SKILL_DESCRIPTION_SHOWN
        ? `${[...flat].slice(0, SKILL_DESCRIPTION_SHOWN - 1).join('')}…`
        : flat;
    const who = s.invokedBy === 'you only' ? `, /${s.name} only` : s.invokedBy ? ', the model only' : '';
    lines.push(`${s.name}  (${s.where}${who})`, `  ${shown}`);
    if (s.allowedTools.length)
      lines.push(
        `  allowed-tools: ${s.allowedTools.join(' ')} (advisory: not a grant; approval still applies)`,
      );
  }
  return lines;
}

/** What /init sends: the model writes AGENTS.md with write_file, which asks the person as any write does. */
export const INIT_PROMPT = [
  'Write an AGENTS.md file at the root of this repository: instructions for a coding agent working here.',
  'First look around: the README, the package or build files (package.json, Makefile, pyproject.toml, Cargo.toml, go.mod and the like), the CI configuration, and the layout of the source and test folders.',
  'Then write, briefly and only what you found: how to install, build, test (all and a single test) and lint; the layout (what lives where); the conventions to follow (style, naming, commits); anything a newcomer would get wrong.',
  'If an AGENTS.md already exists, read it and improve it instead of starting over. Keep it under about 150 lines. Use write_file, so that I can review the file before it is written.',
].join('\n\n');

const THEMES: readonly ThemeName[] = ['auto', 'dark', 'light'];
const THEME_NOTES: Record<ThemeName, string> = {
  auto: "follow the terminal's background (COLORFGBG, OSC 11)",
  dark: 'colours for a dark background',
  light: 'colours for a light background',
};

/** What `/compact` answers when it is done. */
export const COMPACTED_LINES = [
  'The model now sees the summary instead of the earlier messages; carry on as before.',
] as const;

export const BUILTIN_COMMANDS: readonly CommandSpec[] = [
  {
    name: '/help',
    description: 'show commands and keys',
    whileBusy: true,
    run: ({ commands }) => ({ kind: 'info', title: 'Commands', lines: helpLines(commands) }),
  },
  {
    name: '/clear',
    description: 'start a new conversation (clears the screen and the scrollback)',
    whileBusy: false,
    run: ({ session }) => {
      session.clear();
      return { kind: 'cleared', lines: ['Started a new conversation.'] };
    },
  },
  {
    name: '/model',
    args: '[NAME]',
    description: 'use another model (without NAME: pick one)',
    whileBusy: false,
    run: ({ args, session }) => {
      const set = (name: string): CommandOutcome => {
        session.setModel(name);
        return { kind: 'info', lines: [`Model set to ${session.model}.`] };
      };
      if (/\s/.test(args))
        return {
          kind: 'error',
          message: `A model name has no spaces: /model NAME (e.g. /model claude-sonnet-4-6), or /model alone to pick one.`,
        };
      if (args) return set(args);
      // No name: pick one of the current models (the one in use first when it is another).
      const ids = MODEL_CHOICES.map((m) => m.id);
      const models = ids.includes(session.model) ? ids : [session.model, ...ids];
      const notes = new Map(MODEL_CHOICES.map((m) => [m.id, m.note]));
      return {
        kind: 'pick',
        title: `Model (now ${session.model}; /model NAME for any other)`,
        choices: models.map((id) => (notes.has(id) ? `${id}  ${notes.get(id)}` : id)),
        selected: models.indexOf(session.model),
        choose: (i) => set(models[i]),
      };
    },
  },
  {
    name: '/theme',
    args: '[NAME]',
    description: 'colours: auto (follow the terminal), dark or light; saved in your config',
    whileBusy: true,
    run: ({ args, session }) => {
      const set = async (name: ThemeName): Promise<CommandOutcome> => {
        try {
          const file = await session.setTheme(name);
          return { kind: 'info', lines: [`Theme set to ${name} (saved in ${file}).`] };
        } catch (err) {
          return {
            kind: 'error',
            message: `Theme set to ${name} for this session, not saved: ${(err as Error).message}`,
          };
        }
      };
      const name = args.trim();
      if (name) {
        if (!THEMES.includes(name as ThemeName))
          return { kind: 'error', message: `No theme "${name}": /theme auto, /theme dark or /theme light.` };
        return set(name as ThemeName);
      }
      return {
        kind: 'pick',
        title: `Theme (now ${session.theme})`,
        choices: THEMES.map((t) => `${t.padEnd(5)}  ${THEME_NOTES[t]}`),
        selected: Math.max(0, THEMES.indexOf(session.theme)),
        choose: (i) => set(THEMES[i]!),
      };
    },
  },
  {
    name: '/cost',
    description: 'tokens used so far, and their price',
    whileBusy: true,
    run: ({ session }) => ({
      kind: 'info',
      title: 'Usage',
      lines: costLines(session.usage(), session.cost()),
    }),
  },
  {
    name: '/compact',
    args: '[FOCUS]',
    description: 'replace the conversation with a summary, to free the context window',
    whileBusy: false,
    run: async ({ args, session, signal }) => {
      try {
        await session.compact(args || undefined, signal);
        return {
          kind: 'info',
          lines: [...COMPACTED_LINES],
        };
      } catch (err) {
        return { kind: 'error', message: `Could not compact: ${(err as Error).message}` };
      }
    },
  },
  {
    name: '/tools',
    description: "this session's tools, and which ones ask first",
    whileBusy: true,
    run: ({ session }) => {
      const tools = session.tools();
      const width = Math.max(0, ...tools.map((t) => t.displayName.length));
      const lines = tools.map(
        (t) => `${t.displayName.padEnd(width)}  ${t.asks ? 'asks first' : 'runs without asking'}`,
      );
      return { kind: 'info', title: 'Tools', lines };
    },
  },
  {
    name: '/skills',
    description: 'the skills loaded: name, where from, description',
    whileBusy: true,
    run: ({ session }) => ({ kind: 'info', title: 'Skills', lines: skillLines(session.skills()) }),
  },
  {
    name: '/init',
    description: 'ask codey to write an AGENTS.md for this repository (you approve the write)',
    whileBusy: false,
    run: () => ({ kind: 'send', prompt: INIT_PROMPT }),
  },
  {
    name: '/agents',
    description: 'the agent definitions subagents can be started from',
    whileBusy: true,
    run: ({ session }) => {
      const agents = session.agents();
      if (!agents) return { kind: 'info', lines: ['Subagents are off (--no-agents or agents: false).'] };
      if (!agents.length)
        return {
          kind: 'info',
          lines: [
            'No agent definitions; spawn_agent starts general subagents.',
            'Add Markdown files with name and description frontmatter to .codey/agents/ or ~/.config/codey/agents/.',
          ],
        };
      const width = Math.max(...agents.map((a) => a.name.length));
      const lines = agents.map((a) => `${a.name.padEnd(width)}  ${a.description}  (${a.file})`);
      return { kind: 'info', title: 'Agents', lines };
    },
  },
  STATUS_COMMAND,
  {
    name: '/mcp',
    description: 'the MCP servers: status, tools, last error (/mcp restart|login|logout NAME)',
    whileBusy: true,
    run: async ({ args, session }) => {
      const [verb, name, ...rest] = args.trim().split(/\s+/);
      if (name && !rest.length) {
        if (verb === 'restart') return { kind: 'info', lines: [await session.restartMcp(name)] };
        if (verb === 'login') return { kind: 'info', lines: await session.loginMcp(name) };
        if (verb === 'logout') return { kind: 'info', lines: [await session.logoutMcp(name)] };
      }
      if (args.trim()) return { kind: 'error', message: 'usage: /mcp, or /mcp restart|login|logout NAME' };
      const servers = session.mcpServers();
      if (!servers.length)
        return {
          kind: 'info',
          lines: ['No MCP servers configured. Add mcp_servers to your config, or see README, "MCP servers".'],
        };
      const names = (list: typeof servers) => list.map((s) => s.name).join(', ');
      const login = servers.filter((s) => s.status === 'needs-login');
      const down = servers.filter(
        (s) => s.status !== 'connected' && s.status !== 'starting' && s.status !== 'needs-login',
      );
      const hint = [
        ...(down.length ? [`/mcp restart NAME starts one again (${names(down)})`] : []),
        ...(login.length ? [`/mcp login NAME logs in to one (${names(login)})`] : []),
      ];
      if (hint.length) hint.unshift('');
      return { kind: 'info', title: 'MCP servers', lines: [...mcpLines(servers, { tools: true }), ...hint] };
    },
  },
  {
    name: '/worktree',
    args: '[NAME]',
    description: 'move the session into a new git worktree and branch (main: back; no NAME: list)',
    whileBusy: false,
    run: async ({ args, session }) => {
      if (!args) {
        try {
          const trees = await session.worktrees();
          const lines = trees.map(
            (t) =>
              `${t.current ? '*' : ' '} ${t.path}${t.branch ? ` (${t.branch})` : ''}${t.main ? '  main' : ''}`,
          );
          lines.push('', '/worktree NAME makes a new one and moves there; /worktree main goes back.');
          return { kind: 'info', title: 'Worktrees (* this session)', lines };
        } catch (err) {
          return { kind: 'error', message: `Could not list the worktrees: ${(err as Error).message}` };
        }
      }
      try {
        const move = await session.worktree(args);
        if (move.kind === 'stayed') return { kind: 'info', lines: [`Already working in ${move.path}.`] };
        const lines = [
          move.kind === 'returned'
            ? `Back in ${move.path}.`
            : `${move.kind === 'created' ? 'Now' : 'Back'} working in ${move.path} on branch ${move.branch}.`,
        ];
        const n = move.uncommitted ?? 0;
        if (n > 0) {
          const changes = n === 1 ? '1 uncommitted change stays' : `${n} uncommitted changes stay`;
          lines.push(
            move.kind === 'created'
              ? `Note: ${changes} behind; the worktree starts from the last commit.`
              : `Note: ${changes} in the tree you left; they are there when you go back.`,
          );
        }
        return { kind: 'info', lines };
      } catch (err) {
        const what = args === 'main' ? 'go back to the main workspace' : 'create a worktree';
        return { kind: 'error', message: `Could not ${what}: ${(err as Error).message}` };
      }
    },
  },
  {
    name: '/resume',
    args: '[N|ID]',
    description: 'go on with a stored session of this workspace (no argument: list them)',
    whileBusy: false,
    run: ({ args, session }) => {
      const [what, here] = args.split(' ');
      const list = session.sessions();
      if (!what) {
        if (list.length === 0)
          return { kind: 'info', lines: ['No other stored session for this workspace.'] };
        const lines = list.map(
          (s, i) =>
            `${String(i + 1).padStart(2)}. ${s.updatedAt.slice(0, 16).replace('T', ' ')}  ${s.size}  ${s.title || '(no prompt)'}  ${s.id}`,
        );
        return {
          kind: 'info',
          title: 'Sessions',
          lines: [...lines, '', 'Go on with one: /resume N or /resume ID.'],
        };
      }
      const n = /^\d{1,3}$/.test(what) ? Number(what) : 0;
      const id = n >= 1 && n <= list.length ? list[n - 1].id : what;
      const r = session.resume(id, { anyWorkspace: here === 'here' });
      if (r.ok) return { kind: 'info', lines: r.lines };
      if (r.otherWorkspace)
        return {
          kind: 'error',
          message: `${r.message}. To go on with it here anyway: /resume ${id} here`,
        };
      return { kind: 'error', message: r.message };
    },
  },
  REWIND_COMMAND,
  { name: '/exit', description: 'quit', whileBusy: true, run: () => ({ kind: 'exit' }) },
];

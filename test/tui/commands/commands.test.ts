import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILTIN_COMMANDS } from '../../../src/tui/commands/builtin-commands';
import { INPUT_KEYS, inputKeyLines } from '../../../src/tui/terminal/input-keys';
import {
  COMMANDS,
  commandRegistry,
  completeCommand,
  executeCommand,
  matchCommands,
  tokenSummary,
  type CommandSpec,
} from '../../../src/tui/commands/commands';
import { FakeController, usageOf } from '../fake-controller';

/** A command from another source (a custom command file, say), handed over as data. */
const review: CommandSpec = {
  name: '/review',
  args: '[PATH]',
  description: 'review the staged change',
  whileBusy: false,
  run: ({ args }) => ({ kind: 'info', lines: [`reviewing ${args || 'everything'}`] }),
};

const infoLines = async (line: string, c = new FakeController(), commands = COMMANDS) => {
  const outcome = await executeCommand(line, c, { commands });
  if (outcome.kind !== 'info') throw new Error(`expected info, got ${JSON.stringify(outcome)}`);
  return outcome.lines;
};

describe('the command registry', () => {
  it('holds the built-ins in /help order, each with a lower-case name and a one-line description', () => {
    expect(COMMANDS.map((c) => c.name)).toEqual([
      '/help',
      '/clear',
      '/model',
      '/theme',
      '/cost',
      '/compact',
      '/tools',
      '/skills',
      '/init',
      '/agents',
      '/status',
      '/mcp',
      '/worktree',
      '/resume',
      '/rewind',
      '/exit',
    ]);
    for (const c of COMMANDS) {
      expect(c.name, c.name).toMatch(/^\/[a-z][a-z0-9-]*$/);
      expect(c.description.trim(), c.name).not.toBe('');
      expect(c.description, c.name).not.toContain('\n');
    }
  });

  it('/agents lists the definitions with where they are, says when there are none, and when subagents are off', async () => {
    const c = new FakeController();
    c.agentList = [
      { name: 'reviewer', description: 'Reviews a change', file: '.codey/agents/reviewer.md' },
      { name: 'explorer-x', description: 'Explores', file: '~/.claude/agents/explorer-x.md' },
    ];
    expect(await infoLines('/agents', c)).toEqual([
      'reviewer    Reviews a change  (.codey/agents/reviewer.md)',
      'explorer-x  Explores  (~/.claude/agents/explorer-x.md)',
    ]);
    c.agentList = [];
    expect((await infoLines('/agents', c))[0]).toBe(
      'No agent definitions; spawn_agent starts general subagents.',
    );
    c.agentList = undefined;
    expect(await infoLines('/agents', c)).toEqual(['Subagents are off (--no-agents or agents: false).']);
  });

  it('/help lists every command with its argument hint and description, then the keys', async () => {
    const lines = await infoLines('/help');
    expect(lines).toHaveLength(COMMANDS.length + 2 + INPUT_KEYS.length);
    expect(lines).toContain('/model [NAME]     use another model (without NAME: pick one)');
    expect(lines).toContain(
      '/worktree [NAME]  move the session into a new git worktree and branch (main: back; no NAME: list)',
    );
    for (const c of COMMANDS)
      expect(
        lines.some((l) => l.includes(c.description)),
        c.name,
      ).toBe(true);
    expect(lines.slice(-INPUT_KEYS.length)).toEqual(inputKeyLines());
    expect(lines).toContainEqual(
      expect.stringMatching(/^Ctrl\+L {2,}clear the screen and draw the session again$/),
    );
  });

  it('the README key table lists the keys of the key table, in its order', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('| key | does |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const keys = rows.map((r) =>
      r.split(' | ')[0].replace(/^\| /, '').replace(/`/g, '').replace(/\\\|/g, '|'),
    );
    expect(keys).toEqual(INPUT_KEYS.map((r) => r.keys));
  });

  it('merges another source as data: /help, completion and running all see the new entry', async () => {
    const commands = commandRegistry(BUILTIN_COMMANDS, [review]);
    expect(commands.map((c) => c.name).at(-1)).toBe('/review');
    expect(await infoLines('/help', undefined, commands)).toContain(
      '/review [PATH]    review the staged change',
    );
    expect(completeCommand('/rev', commands)).toBe('/review ');
    expect(matchCommands('/r', commands).map((c) => c.name)).toEqual(['/resume', '/rewind', '/review']);
    expect(await infoLines('/review src', undefined, commands)).toEqual(['reviewing src']);
    // The built-in list alone knows nothing of it.
    expect(completeCommand('/rev')).toBeUndefined();
  });

  it('keeps the first entry of a name, so a later source cannot replace a built-in', async () => {
    const impostor: CommandSpec = { ...review, name: '/exit', description: 'not quitting' };
    const commands = commandRegistry(BUILTIN_COMMANDS, [impostor]);
    expect(commands).toHaveLength(BUILTIN_COMMANDS.length);
    expect(await executeCommand('/exit', new FakeController(), { commands })).toEqual({ kind: 'exit' });
  });
});

describe('while a turn runs', () => {
  it('refuses exactly the commands whose whileBusy is false, and leaves the session alone', async () => {
    const refused: string[] = [];
    for (const c of COMMANDS) {
      const fake = new FakeController();
      const outcome = await executeCommand(`${c.name} other`, fake, { busy: true });
      if (outcome.kind === 'error' && outcome.message.includes('waits for the running turn')) {
        refused.push(c.name);
        expect(outcome.message).toBe(
          `${c.name} waits for the running turn: press Esc to interrupt it first.`,
        );
        expect([
          fake.cleared,
          fake.models.length,
          fake.worktreeNames.length,
          fake.compactions.length,
          fake.resumed.length,
          fake.rewinds.length,
        ]).toEqual([0, 0, 0, 0, 0, 0]);
      }
      expect(refused.includes(c.name), c.name).toBe(!c.whileBusy);
    }
    expect(refused).toEqual(['/clear', '/model', '/compact', '/init', '/worktree', '/resume', '/rewind']);
  });

  it('refuses a command typed as a prefix as well ("/cle" is /clear)', async () => {
    const fake = new FakeController();
    expect(await executeCommand('/cle', fake, { busy: true })).toEqual({
      kind: 'error',
      message: '/clear waits for the running turn: press Esc to interrupt it first.',
    });
    expect(fake.cleared).toBe(0);
  });

  it('runs the same command once the turn is over', async () => {
    const fake = new FakeController();
    expect(await executeCommand('/cle', fake)).toEqual({
      kind: 'cleared',
      lines: ['Started a new conversation.'],
    });
    expect(fake.cleared).toBe(1);
  });
});

describe('command completion', () => {
  it('lists matches while the name is typed, none once an argument starts', () => {
    expect(matchCommands('/c').map((c) => c.name)).toEqual(['/clear', '/cost', '/compact']);
    expect(matchCommands('/model x')).toEqual([]);
    expect(matchCommands('hello')).toEqual([]);
  });

  it('completes one match (with a space when it takes an argument) or the common prefix', () => {
    expect(completeCommand('/mo')).toBe('/model ');
    expect(completeCommand('/he')).toBe('/help');
    expect(completeCommand('/c')).toBeUndefined();
    expect(completeCommand('/cl')).toBe('/clear');
    expect(completeCommand('/zzz')).toBeUndefined();
  });
});

describe('executeCommand', () => {
  it('runs an unambiguous prefix and refuses an unknown command with a way out', async () => {
    const c = new FakeController();
    expect(await executeCommand('/he', c)).toMatchObject({ kind: 'info', title: 'Commands' });
    expect(await executeCommand('/nope', c)).toEqual({
      kind: 'error',
      message: 'Unknown command /nope; /help lists the commands.',
    });
    // Two commands begin with "/c": it names neither.
    expect(await executeCommand('/c', c)).toEqual({
      kind: 'error',
      message: 'Unknown command /c; /help lists the commands.',
    });
  });

  it('reports a worktree failure as an error', async () => {
    const c = new FakeController();
    c.worktreeError = 'not a git repository';
    expect(await executeCommand('/worktree x', c)).toEqual({
      kind: 'error',
      message: 'Could not create a worktree: not a git repository',
    });
  });

  it('turns a command that throws into an error naming it', async () => {
    const broken: CommandSpec = {
      name: '/broken',
      description: 'always fails',
      whileBusy: true,
      run: () => {
        throw new Error('prompt file is gone');
      },
    };
    const commands = commandRegistry(BUILTIN_COMMANDS, [broken]);
    expect(await executeCommand('/broken', new FakeController(), { commands })).toEqual({
      kind: 'error',
      message: '/broken failed: prompt file is gone',
    });
  });

  it('/cost gives the session spend and names the models without a price', async () => {
    const c = new FakeController();
    c.usageValue = usageOf({ input_tokens: 1234, output_tokens: 56, web_search_requests: 2 });
    c.spendValue = { dollars: 0.0123, unpriced: ['claude-new-9'] };
    expect(await infoLines('/cost', c)).toEqual([
      'input tokens:        1,234',
      'output tokens:       56',
      'cache read tokens:   0',
      'cache write tokens:  0',
      'web searches:        2',
      "cost:                $0.0123 (each request at its model's price; price unknown for claude-new-9)",
    ]);
    c.spendValue = { dollars: 0, unpriced: ['claude-new-9'] };
    expect((await infoLines('/cost', c)).at(-1)).toBe(
      'cost:                price unknown (no price known for claude-new-9)',
    );
  });
});

describe('tokenSummary', () => {
  it('counts cached and written input as input and gives the cache-read share', () => {
    const u = usageOf({
      input_tokens: 1000,
      cache_read_input_tokens: 8500,
      cache_creation_input_tokens: 500,
      output_tokens: 1234,
    });
    expect(tokenSummary(u)).toBe('10k in (85% cached) · 1.2k out');
    expect(tokenSummary(undefined)).toBe('0 in · 0 out');
  });
});

import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/tui/app/App';
import { BUILTIN_COMMANDS, INIT_PROMPT } from '../../../src/tui/commands/builtin-commands';
import { commandRegistry, executeCommand, type CommandSpec } from '../../../src/tui/commands/commands';
import { FakeController } from '../fake-controller';
import { KEY, eventually, frame, mounted, tick } from '../helpers';

afterEach(() => cleanup());

/** A custom command as the CLI hands it over: it sends a prompt. */
const fix: CommandSpec = {
  name: '/fix-issue',
  args: '[NUMBER]',
  description: 'fix a GitHub issue',
  whileBusy: false,
  run: ({ args }) => ({ kind: 'send', prompt: `Fix issue #${args} and add a test.` }),
};

describe('commands that send a prompt', () => {
  it('/NAME args starts a turn with the expanded prompt, and Tab completes the custom name', async () => {
    const c = new FakeController();
    c.commands = commandRegistry(BUILTIN_COMMANDS, [fix]);
    const app = render(<App controller={c} home="/home/ann" />);
    await mounted(app.stdin);
    for (const chunk of ['/fix-', KEY.tab]) {
      app.stdin.write(chunk);
      await tick();
    }
    await eventually(() => expect(frame(app.lastFrame)).toContain('/fix-issue '));
    for (const chunk of ['42', KEY.enter]) {
      app.stdin.write(chunk);
      await tick();
    }
    await eventually(() => expect(c.runs.map((r) => r.prompt)).toEqual(['Fix issue #42 and add a test.']));
    expect(frame(app.lastFrame)).toContain('/fix-issue 42');
    // The line as typed goes with the prompt, for a resumed transcript to show it.
    expect(c.runs[0].typed).toBe('/fix-issue 42');
  });

  it('/init sends the request for an AGENTS.md, and waits while a turn runs', async () => {
    expect(await executeCommand('/init', new FakeController())).toEqual({
      kind: 'send',
      prompt: INIT_PROMPT,
    });
    expect(INIT_PROMPT).toContain('AGENTS.md');
    expect(INIT_PROMPT).toContain('write_file');
    expect((await executeCommand('/init', new FakeController(), { busy: true })).kind).toBe('error');
  });
});

describe('/skills', () => {
  it('lists name, where from, description and allowed-tools as advisory', async () => {
    const c = new FakeController();
    c.skillList = [
      {
        name: 'pdf',
        where: 'project: .claude/skills/pdf',
        description: 'Fill PDF\nforms.',
        allowedTools: [],
      },
      {
        name: 'sheets',
        where: 'user: ~/.agents/skills/sheets',
        description: 'x'.repeat(300),
        allowedTools: ['Bash(python3:*)', 'Read'],
      },
    ];
    const outcome = await executeCommand('/skills', c);
    expect(outcome).toEqual({
      kind: 'info',
      title: 'Skills',
      lines: [
        'pdf  (project: .claude/skills/pdf)',
        '  Fill PDF forms.',
        'sheets  (user: ~/.agents/skills/sheets)',
        `  ${'x'.repeat(199)}…`,
        '  allowed-tools: Bash(python3:*) Read (advisory: not a grant; approval still applies)',
      ],
    });
  });

  it('says where skills come from when there are none', async () => {
    const outcome = await executeCommand('/skills', new FakeController());
    expect(outcome.kind === 'info' && outcome.lines).toEqual([
      'No skills loaded. A skill is a folder with a SKILL.md in .codey/skills, .agents/skills or',
      '.claude/skills (of the workspace or your config); see README, "Skills".',
    ]);
  });
});

import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { argumentWords, discoverCommands, expandCommand, parseCommand } from '../../src/skills/commands';
import { frontmatterReady } from '../../src/skills/frontmatter';
import { removeDir, tempDir, writeTree } from '../tools/file-tools-kit';

// parseCommand is synchronous: the YAML parser it splits a frontmatter with is loaded first, as discovery does.
beforeAll(() => frontmatterReady('---\n'));

let base: string;
let repo: string;
let ws: string;
let env: { HOME: string; XDG_CONFIG_HOME: string };
beforeEach(async () => {
  base = await tempDir('codey-commands-');
  repo = path.join(base, 'repo');
  ws = path.join(repo, 'app');
  env = { HOME: path.join(base, 'home'), XDG_CONFIG_HOME: path.join(base, 'xdg') };
  await mkdir(ws, { recursive: true });
});
afterEach(() => removeDir(base));

const BUILTINS = ['/help', '/clear', '/model', '/cost', '/quit'];
const where = { path: '/w/.codey/commands/review.md', name: 'review', scope: 'project' as const };

describe('parseCommand', () => {
  it('reads description, argument-hint, model and allowed-tools from the frontmatter and keeps the body as the prompt', () => {
    const r = parseCommand(
      '---\ndescription: Review a file for bugs\nargument-hint: "[file] [focus]"\nallowed-tools: Read, Bash(git diff:*), Bash(git log *)\nmodel: haiku\ncolor: red\n---\n\nReview $1, looking at $2.\n',
      where,
    );
    expect(r).toEqual({
      command: {
        name: 'review',
        description: 'Review a file for bugs',
        argumentHint: '[file] [focus]',
        model: 'haiku',
        allowedTools: ['Read', 'Bash(git diff:*)', 'Bash(git log *)'],
        body: 'Review $1, looking at $2.',
        path: '/w/.codey/commands/review.md',
        scope: 'project',
      },
      problems: [],
    });
  });

  it('takes a file without frontmatter whole, and a YAML list as hint', () => {
    expect(parseCommand('Explain $ARGUMENTS simply.\n', where).command).toEqual({
      name: 'review',
      body: 'Explain $ARGUMENTS simply.',
      path: '/w/.codey/commands/review.md',
      scope: 'project',
    });
    expect(parseCommand('---\nargument-hint: [message]\n---\nbody', where).command?.argumentHint).toBe(
      '[message]',
    );
  });

  it('loads a command whose frontmatter is not valid YAML from its body, with a problem', () => {
    const r = parseCommand('---\nargument-hint: [pr] [priority]\n---\nFix PR $1.\n', where);
    expect(r.command?.body).toBe('Fix PR $1.');
    expect(r.command?.argumentHint).toBeUndefined();
    expect(r.problems).toEqual([
      'the frontmatter is not valid YAML at line 2 (Unexpected flow-seq-start at node end); put a value that holds ": " or starts with [ in quotes; its frontmatter ignored',
    ]);
  });

  it('leaves out a command with an empty prompt', () => {
    expect(parseCommand('---\ndescription: nothing\n---\n\n  \n', where)).toEqual({
      problems: ['the prompt (the text after the frontmatter) is empty; skipped'],
    });
  });
});

describe('discoverCommands', () => {
  it("reads .codey, then .claude, up to the git root, then the user folder; first of a name wins, but your own beats the repository's", async () => {
    await writeTree(base, {
      'repo/app/.codey/commands/review.md': '---\ndescription: app review\n---\nReview $ARGUMENTS',
      'repo/app/.claude/commands/review.md': 'the .claude one',
      'repo/app/.claude/commands/explain.md': 'Explain $ARGUMENTS',
      'repo/.codey/commands/release.md': 'Cut a release',
      'xdg/codey/commands/standup.md': 'Write my standup',
      'xdg/codey/commands/explain.md': 'the user one',
      'xdg/codey/commands/notes.txt': 'not a command: not .md',
      'home/.config/codey/commands/unused.md': 'not read: XDG_CONFIG_HOME is set',
    });
    const r = await discoverCommands({ workspace: ws, gitRoot: repo, env }, BUILTINS);
    expect(r.commands.map((c) => `/${c.name} ${c.scope} ${path.relative(base, c.path)}`)).toEqual([
      '/review project repo/app/.codey/commands/review.md',
      '/explain user xdg/codey/commands/explain.md',
      '/release project repo/.codey/commands/release.md',
      '/standup user xdg/codey/commands/standup.md',
    ]);
    expect(r.commands[0].description).toBe('app review');
    expect(r.commands[1].body).toBe('the user one');
    expect(r.notices).toEqual([
      'codey: command .claude/commands/review.md: /review is already defined by .codey/commands/review.md; this one is left out',
      `codey: command .claude/commands/explain.md: /explain is your own command (${base}/xdg/codey/commands/explain.md); the repository's is left out`,
    ]);
  });

  it("takes a repository folder linked to the person's own commands as theirs, and skips one linked elsewhere", async () => {
    await writeTree(base, {
      'xdg/codey/commands/standup.md': 'Write my standup',
      'elsewhere/leak.md': 'OUTSIDE',
    });
    await mkdir(path.join(ws, '.codey'), { recursive: true });
    await mkdir(path.join(ws, '.claude'), { recursive: true });
    await symlink(path.join(base, 'xdg/codey/commands'), path.join(ws, '.codey/commands'));
    await symlink(path.join(base, 'elsewhere'), path.join(ws, '.claude/commands'));
    const r = await discoverCommands({ workspace: ws, gitRoot: repo, env }, BUILTINS);
    expect(r.commands.map((c) => `/${c.name} ${c.scope}`)).toEqual(['/standup user']);
    expect(r.notices).toEqual([
      'codey: commands folder .claude/commands is a link to a folder outside the repository; skipped',
    ]);
  });

  it('refuses a command named like a built-in one, and a bad file name, with notices', async () => {
    await writeTree(ws, {
      '.codey/commands/help.md': 'my own help',
      '.codey/commands/Clear.md': 'my own clear',
      '.codey/commands/fix issue.md': 'spaces in the name',
      '.codey/commands/ok_name-2.md': 'fine',
    });
    const r = await discoverCommands({ workspace: ws, env }, BUILTINS);
    expect(r.commands.map((c) => c.name)).toEqual(['ok_name-2']);
    expect(r.notices).toEqual([
      'codey: command .codey/commands/Clear.md: /Clear is a built-in command; rename the file to use it',
      'codey: command .codey/commands/fix issue.md: a command name is 1–64 letters, digits, ., - and _ (from the file and folder names); skipped',
      'codey: command .codey/commands/help.md: /help is a built-in command; rename the file to use it',
    ]);
  });

  it('names a file whose name holds escape sequences with them written as \\u escapes', async () => {
    await writeTree(ws, { '.codey/commands/q\u001b]0;CMDNAME\u0007.md': 'a prompt' });
    const r = await discoverCommands({ workspace: ws, env }, BUILTINS);
    expect(r.commands).toEqual([]);
    expect(r.notices).toEqual([
      'codey: command .codey/commands/q\\u001b]0;CMDNAME\\u0007.md: a command name is 1–64 letters, digits, ., - and _ (from the file and folder names); skipped',
    ]);
  });
});

describe('expandCommand', () => {
  it('replaces $ARGUMENTS with all of the arguments and $1, $2 with their words', () => {
    expect(expandCommand('Review $1 for $2 issues.\nContext: $ARGUMENTS', '  src/a.ts security  ')).toBe(
      'Review src/a.ts for security issues.\nContext: src/a.ts security',
    );
  });

  it('reads quoted words as one, empties missing words, and reaches $10', () => {
    expect(argumentWords(`fix "the login bug" 'high prio'`)).toEqual(['fix', 'the login bug', 'high prio']);
    expect(expandCommand('[$1] [$2] [$3]', 'one')).toBe('[one] [] []');
    expect(expandCommand('$10-$1', 'a b c d e f g h i j')).toBe('j-a');
  });

  it('does not expand placeholders inside the arguments', () => {
    expect(expandCommand('Say $ARGUMENTS then $1', '$1 $ARGUMENTS')).toBe('Say $1 $ARGUMENTS then $1');
  });

  it('appends the arguments to a body without placeholders, and leaves it alone without arguments', () => {
    expect(expandCommand('Write the release notes.', 'for v2.1')).toBe(
      'Write the release notes.\n\nfor v2.1',
    );
    expect(expandCommand('Write the release notes.', '   ')).toBe('Write the release notes.');
    expect(expandCommand('Explain $ARGUMENTS.', '')).toBe('Explain .');
  });
});

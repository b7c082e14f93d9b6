import { describe, expect, it } from 'vitest';
import { rulesInForce } from '../../src/cli/wiring';

describe('rules in force', () => {
  it('Claude Code tools codey does not have are named in one notice; a rule codey cannot match in its own', () => {
    const notices: string[] = [];
    const rules = rulesInForce(
      {
        allow: ['TodoWrite', 'NotebookEdit(x.ipynb)', 'Bash(git status:*)', 'Grep(src/**)'],
        deny: ['LS', 'TodoWrite', 'Read(./.env)'],
      },
      ['bash', 'read_file', 'grep'],
      notices,
    );
    expect(rules).toEqual({ allow: ['Bash(git status:*)'], deny: ['Read(./.env)'] });
    expect(notices).toEqual([
      'codey: the rule "Grep(src/**)" can match nothing: grep calls are decided as a whole; write Grep alone, or a Read(path) deny rule to keep files out of its results; ignored',
      'codey: the rules "TodoWrite", "NotebookEdit(x.ipynb)", "LS" name no tool of this session (tools: bash, read_file, grep); ignored',
    ]);
  });

  it('comment entries people put in lists are one line, not a parse error each', () => {
    const notices: string[] = [];
    const rules = rulesInForce(
      { allow: ['// lint and tests', 'Bash(npm test)', '# git'], deny: ['//never the keys', 'Read(./.env)'] },
      ['bash', 'read_file'],
      notices,
    );
    expect(rules).toEqual({ allow: ['Bash(npm test)'], deny: ['Read(./.env)'] });
    expect(notices).toEqual([
      'codey: 3 comment entries (starting // or #) in the rule lists; not rules, ignored',
    ]);
  });
});

import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editInEditor } from '../../src/cli/editor';

async function script(body: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'codey-editor-test-'));
  const file = join(dir, 'ed.sh');
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

describe('editInEditor', () => {
  it('returns what the editor left in the file, without the trailing newline; keys stay out of its env', async () => {
    // Appends a line and what it sees of the key variable.
    const ed = await script('printf "second line [%s]\\n" "$ANTHROPIC_API_KEY" >> "$1"');
    const out = editInEditor('first line\n', {
      EDITOR: ed,
      PATH: process.env.PATH,
      ANTHROPIC_API_KEY: 'sk-secret',
    });
    expect(out).toEqual({ text: 'first line\nsecond line []' });
  });

  it('takes $VISUAL over $EDITOR, and arguments in the variable', async () => {
    const ed = await script('printf "%s" "$1" > "$2"');
    expect(
      editInEditor('x', { VISUAL: `${ed} from-visual`, EDITOR: 'false', PATH: process.env.PATH }),
    ).toEqual({
      text: 'from-visual',
    });
  });

  it('says what went wrong when the editor fails or does not exist', () => {
    expect(editInEditor('x', { EDITOR: 'false', PATH: process.env.PATH })).toEqual({
      error: 'the editor "false" exited with 1; the input is unchanged',
    });
    const missing = editInEditor('x', { EDITOR: '/nonexistent/editor', PATH: process.env.PATH });
    expect('error' in missing && missing.error).toMatch(
      /^could not start the editor "\/nonexistent\/editor": .*; set \$EDITOR$/,
    );
  });
});

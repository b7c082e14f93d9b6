/** Ctrl+G in the input: the prompt edited in the person's own editor (`$VISUAL`, `$EDITOR`, `vi`). */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInTerminal } from '../tools/exec';

/**
 * Writes `text` to a temporary file, runs the editor on it in the terminal (blocking: the editor
 * owns the terminal until it exits) and returns the file's text, without the one trailing newline
 * editors add. The editor is `$VISUAL`, else `$EDITOR`, else `vi`, split on spaces (`code --wait`);
 * it gets the environment without codey's keys. `error` says what went wrong (no such editor, a
 * non-zero exit), and the input is then kept as it was.
 */
export function editInEditor(
  text: string,
  env: Record<string, string | undefined> = process.env,
): { text: string } | { error: string } {
  const editor = (env.VISUAL || env.EDITOR || 'vi').trim();
  const [command, ...args] = editor.split(/\s+/);
  const dir = mkdtempSync(join(tmpdir(), 'codey-edit-'));
  const file = join(dir, 'prompt.md');
  try {
    writeFileSync(file, text, 'utf8');
    const r = runInTerminal(command, [...args, file], env);
    if (r.error) return { error: `could not start the editor "${editor}": ${r.error.message}; set $EDITOR` };
    if (r.status !== 0)
      return { error: `the editor "${editor}" exited with ${r.status ?? r.signal}; the input is unchanged` };
    return { text: readFileSync(file, 'utf8').replace(/\r?\n$/, '') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

import { atReferences, markdownPieces } from './markdown-code';

/** What {@link inlineCommand} needs from the session: how to run a command and read a file. */
export interface InlineHooks {
  /** Run one `` !`cmd` `` (as a bash call would be decided and run); the text that takes its place. */
  run(command: string): Promise<string>;
  /** One `@path` reference: its text for the prompt, or undefined to leave the reference as written. */
  read(ref: string): Promise<{ path: string; text: string } | undefined>;
}

/** A fence of backticks longer than any run of them in `text`. */
function fenceFor(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

/**
 * Pre-process a command's prompt as Claude Code does before it is sent: each `` !`cmd` `` outside
 * fenced blocks is replaced by what `hooks.run` gives (its output, or why it did not run), one at a
 * time, in order; then each `@path` outside code that `hooks.read` resolves is followed, after the
 * prompt, by the file's text in a fence under the line `Contents of PATH:`. Unresolved references
 * stay as written (`@someone` is a mention, not a file).
 */
export async function inlineCommand(text: string, hooks: InlineHooks): Promise<string> {
  let out = '';
  for (const piece of markdownPieces(text)) {
    if (piece.kind === 'fence') {
      out += piece.text;
      continue;
    }
    // A `!` span is a code span to the Markdown splitter: the `!` ends the text piece before it.
    if (piece.kind === 'code' && out.endsWith('!') && /^`[^`\n]+`$/.test(piece.text)) {
      out = out.slice(0, -1) + (await hooks.run(piece.text.slice(1, -1).trim()));
      continue;
    }
    out += piece.text;
  }
  const files: string[] = [];
  // References of the file as written: a command's output never names a file to read.
  for (const ref of atReferences(text)) {
    const got = await hooks.read(ref);
    if (!got) continue;
    const fence = fenceFor(got.text);
    files.push(`Contents of ${got.path}:\n${fence}\n${got.text.replace(/\n$/, '')}\n${fence}`);
  }
  return files.length ? `${out}\n\n${files.join('\n\n')}` : out;
}

/**
 * `!cmd` output as the model reads it: put before the person's next message, one note per command,
 * each ending with a fixed line so that a stored conversation can be drawn again with the commands as
 * commands (`splitShellNotes`), not as text the person typed.
 */

const HEAD = /^\[The person ran this shell command themselves \(exit ([^)\n]*)\):\]\n\$ ([^\n]*)\n/;
const END = '\n[end of that command’s output]';

/** The note for one command: `exit` is the exit code, or the signal's name when killed. */
export function shellNote(command: string, exit: number | string, output: string): string {
  return `[The person ran this shell command themselves (exit ${exit}):]\n$ ${command}\n${output}${END}`;
}

/** A command the person ran, as a note in a message holds it. */
export interface ShellNote {
  command: string;
  exit: string;
  output: string;
}

/**
 * The notes at the start of a user message's `text`, and the text after them (the person's own
 * words). Text without notes comes back whole as `rest`.
 */
export function splitShellNotes(text: string): { notes: ShellNote[]; rest: string } {
  const notes: ShellNote[] = [];
  let rest = text;
  for (;;) {
    const head = HEAD.exec(rest);
    if (!head) break;
    const end = rest.indexOf(END, head[0].length);
    if (end < 0) break;
    notes.push({ exit: head[1], command: head[2], output: rest.slice(head[0].length, end) });
    rest = rest.slice(end + END.length).replace(/^\n+/, '');
  }
  return { notes, rest };
}

/**
 * `!cmd` output as the model reads it: put before the person's next message, one note per command,
 * each ending with a fixed line so the model sees where the output stops. The store keeps the
 * commands apart (`SessionRecorder.recordPrompt`), so a resumed transcript draws them as commands.
 */

const END = '\n[end of that command’s output]';

/** The note for one command: `exit` is the exit code, or the signal's name when killed. */
export function shellNote(command: string, exit: number | string, output: string): string {
  return `[The person ran this shell command themselves (exit ${exit}):]\n$ ${command}\n${output}${END}`;
}

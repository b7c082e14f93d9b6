import { forTerminal } from '../util/terminal-text';

/**
 * Ask a yes/no question on the terminal (stderr) before the app starts; only `y` or `yes` is yes
 * (Enter, Ctrl-C, Ctrl-D: no).
 */
export async function askYesNo(question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const stop = new AbortController();
  rl.on('SIGINT', () => stop.abort());
  rl.on('close', () => stop.abort());
  try {
    // The question may quote paths and ids: it passes the one sanitiser like every line for a person.
    const answer = await rl.question(forTerminal(question), { signal: stop.signal });
    return /^y(es)?$/i.test(answer.trim());
  } catch {
    return false;
  } finally {
    rl.close();
  }
}

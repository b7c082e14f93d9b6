import { forTerminal } from '../util/terminal-text';
import { withKeysSetAside } from './held-keys';

/** Only `y` or `yes` (any case, spaces around) is yes. */
export const isYes = (answer: string | undefined): boolean => /^y(es)?$/i.test((answer ?? '').trim());

/**
 * Ask a question on the terminal (stderr) before the app starts and wait for the line typed.
 * @returns the line; `undefined` at end of input (Ctrl-D); `interrupted` for Ctrl-C.
 */
export function askLine(question: string): Promise<string | undefined | 'interrupted'> {
  // Keys typed before the question was drawn (while codey loaded) are no answer: a `y` and Enter
  // typed ahead would trust a repository unseen. They wait for the input box.
  return withKeysSetAside(
    () => askLineNow(question),
    () => process.stderr.write(`${KEPT_NOTE}\n`),
  );
}

/** Said before a question when keys typed while codey loaded wait: they do not answer it. */
const KEPT_NOTE =
  'codey: what you typed while codey started is kept for the input box; it does not answer this';

async function askLineNow(question: string): Promise<string | undefined | 'interrupted'> {
  const { createInterface } = await import('node:readline/promises');
  // A screen drawn before (the setup wizard's Ink) may have left stdin unreferenced: without this
  // the process would end while the question waits.
  (process.stdin as { ref?: () => void }).ref?.();
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const stop = new AbortController();
  let interrupted = false;
  rl.on('SIGINT', () => {
    interrupted = true;
    stop.abort();
  });
  rl.on('close', () => stop.abort());
  try {
    // The question may quote paths and ids: it passes the one sanitiser like every line for a person.
    return await rl.question(forTerminal(question), { signal: stop.signal });
  } catch {
    return interrupted ? 'interrupted' : undefined;
  } finally {
    rl.close();
  }
}

/**
 * Ask a yes/no question on the terminal (stderr) before the app starts; only `y` or `yes` is yes
 * (Enter, Ctrl-C, Ctrl-D: no).
 */
export async function askYesNo(question: string): Promise<boolean> {
  const answer = await askLine(question);
  return answer !== 'interrupted' && isYes(answer);
}

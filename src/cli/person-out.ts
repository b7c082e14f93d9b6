import { redactor } from '../util/redact';
import { forTerminal } from '../util/terminal-text';
import { secretsOf } from '../util/secrets';

/**
 * A writer for text meant for a person on a terminal (stderr notices, errors, help): redacted with
 * `secrets` (default: {@link secretsOf} `process.env`), then stripped of every terminal control
 * by {@link forTerminal}. Config notices, parse errors, commander's messages and internal errors all
 * pass through it, so a file name, a key name or an argument cannot drive the terminal.
 */
export function personWriter(
  write: (s: string) => unknown,
  secrets: readonly string[] = secretsOf(process.env),
): (s: string) => void {
  const redact = redactor(secrets);
  return (s) => void write(forTerminal(redact(s)));
}

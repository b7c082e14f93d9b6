import type { Settings } from '../config/resolve';
import type { CliOptions } from './program';
import { EXIT } from './program';

export interface InteractiveInput {
  settings: Settings;
  opts: CliOptions;
  positional?: string;
  version: string;
  setup: boolean;
}

/** The interactive session (the Ink TUI). Needs a terminal on both ends. */
export async function runInteractive(input: InteractiveInput): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write(
      'codey: the interactive session needs a terminal; for one-shot use: codey -p "what to do"\n',
    );
    return EXIT.usage;
  }
  void input;
  process.stderr.write(
    'codey: the interactive TUI arrives in a later version; for now use: codey -p "what to do"\n',
  );
  return EXIT.usage;
}

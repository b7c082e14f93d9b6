import type { Settings } from '../config/resolve';
import { readUserConfig } from '../config/write';
import { personWriter } from './person-out';
import { EXIT } from './exit-codes';

/**
 * The setup wizard: on the first interactive start (no user config file) and for `codey setup`.
 * Only called with a terminal on both ends, never under `-p`. Returns 0 whether the person saved
 * or cancelled (the wizard says which); 2 when the user file cannot be read.
 */
export async function runSetup(settings: Settings, env: Record<string, string | undefined>): Promise<number> {
  const userFile = settings.files.user;
  let existing: Record<string, unknown>;
  try {
    existing = await readUserConfig(userFile);
  } catch (err) {
    personWriter((s) => process.stderr.write(s))(`codey: ${(err as Error).message}\n`);
    return EXIT.usage;
  }
  const [{ runWizard }, { isCommandAvailable }] = await Promise.all([
    import('../tui/wizard/run'),
    import('../web/search/command'),
  ]);
  await runWizard({ env, userFile, existing, isOnPath: (cmd) => isCommandAvailable(cmd, env) });
  return EXIT.ok;
}

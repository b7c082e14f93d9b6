import type { Settings } from '../config/resolve';
import { EXIT } from './program';

/** `codey setup` and the first run: the wizard arrives with the setup issue. */
export async function runSetup(
  _settings: Settings,
  _env: Record<string, string | undefined>,
): Promise<number> {
  return EXIT.ok;
}

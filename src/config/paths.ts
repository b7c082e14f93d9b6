import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

/** `$XDG_CONFIG_HOME/codey` (default `~/.config/codey`), per the XDG Base Directory spec. */
export function configDir(env: Env = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'codey');
}

/** The user config file: `$XDG_CONFIG_HOME/codey/config.json`. */
export function userConfigFile(env: Env = process.env): string {
  return join(configDir(env), 'config.json');
}

/** `$XDG_STATE_HOME/codey` (default `~/.local/state/codey`): session logs, input history. */
export function stateDir(env: Env = process.env): string {
  return join(env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state'), 'codey');
}

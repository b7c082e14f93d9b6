/**
 * The sandbox of a session (`sandbox: on`, README "Sandbox"): probed once at start, and what it
 * hides for this person. Where it cannot start, codey does not start either (fail closed): it never
 * runs a command outside a sandbox the person asked for.
 */
import { absoluteDir, configDir, passwdHome, personHome, stateDir } from '../config/paths';
import type { Settings } from '../config/resolve';
import { runChild } from '../tools/exec';
import { hiddenPaths, probeSandbox } from '../tools/sandbox';
import type { SandboxSetup } from '../util/exec-shapes';
import { StartRefused } from './exit-codes';

/**
 * The session's sandbox for `s.sandbox`, or undefined when it is off. Throws {@link StartRefused}
 * with the line saying how to fix it when bwrap is missing or cannot make a sandbox here.
 */
export async function sandboxSetupFor(
  s: Pick<Settings, 'sandbox'>,
  env: Record<string, string | undefined>,
  workspace: string,
): Promise<SandboxSetup | undefined> {
  if (s.sandbox !== 'on') return undefined;
  const problem = await probeSandbox('bwrap', runChild, env);
  if (problem) throw new StartRefused(problem);
  const folders = {
    configDir: configDir(env, workspace),
    stateDir: stateDir(env, workspace),
    runtimeDir: absoluteDir(env.XDG_RUNTIME_DIR),
  };
  // Both homes: the one HOME names and the password database's, where ssh looks.
  const homes = new Set([personHome(env, workspace), passwdHome()]);
  const hidden = new Set([...homes].flatMap((home) => hiddenPaths({ home, ...folders })));
  return { bwrap: 'bwrap', hidden: [...hidden] };
}

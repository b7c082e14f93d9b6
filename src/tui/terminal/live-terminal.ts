import { baselineWasmOnly } from '../../util/wasm-tier';

/**
 * Ink decides once, when it is first evaluated, whether it runs under CI: the `is-in-ci` package reads
 * `CI` and `CONTINUOUS_INTEGRATION` at import time, and then Ink draws nothing until it unmounts and
 * prints only the last frame. chalk's `supports-color`, loaded by Ink, also reads `CI` at import time and
 * turns colours off. A person whose shell sets CI=true (common in dev containers) would see a blank
 * screen while codey asks them to approve a command.
 *
 * Ink 6 has no render option for this, so the modules that import Ink are loaded with those variables
 * hidden when the output is a terminal, and the variables are put back as soon as the import settles:
 * the tools' child processes (a test runner, say) still see them. It must be a dynamic `import()`: a
 * static import is evaluated before any code of the module that names it, and tsup keeps external
 * imports (Ink is external) at the top of the bundle.
 */

/** Read by `is-in-ci` (Ink) and, `CI` only, by `supports-color` (chalk). */
const CI_VARIABLES = ['CI', 'CONTINUOUS_INTEGRATION'] as const;

/**
 * Runs `load` (a dynamic import of modules that import Ink) with `CI` and `CONTINUOUS_INTEGRATION`
 * removed from `process.env` when `stdout` is a TTY, and restores them afterwards, also when `load`
 * rejects. Without a TTY the environment is left alone, so Ink keeps its CI behaviour for piped output.
 * Has no effect on an Ink that an earlier import already evaluated. WebAssembly is compiled with V8's
 * baseline compiler only from here on ({@link baselineWasmOnly}): Ink's layout engine is WebAssembly.
 *
 * @returns What `load` resolves with; rejects with its error.
 */
export async function importForTerminal<T>(stdout: { isTTY?: boolean }, load: () => Promise<T>): Promise<T> {
  baselineWasmOnly();
  if (stdout.isTTY !== true) return load();
  const env = process.env;
  const saved = CI_VARIABLES.filter((name) => name in env).map((name) => [name, env[name]] as const);
  for (const [name] of saved) delete env[name];
  try {
    return await load();
  } finally {
    for (const [name, value] of saved) env[name] = value;
  }
}

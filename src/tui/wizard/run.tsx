import type { Instance } from 'ink';
import { screenRenderOptions, type ScreenIo } from '../terminal/ink-options';
import { importForTerminal } from '../terminal/live-terminal';
import { makeTheme, noColorFromEnv, ThemeContext } from '../widgets/theme';
import { shadeFromColorFgBg } from '../terminal/background';
import type { WizardDeps, WizardOutcome } from './state';

export type { WizardDeps, WizardOutcome } from './state';

/** Streams to render on; default the process's. */
export type WizardIo = ScreenIo;

/**
 * Runs the setup wizard in the terminal until the choices are saved or the person cancels (Esc on
 * the first step, Ctrl+C on any). Colours follow `NO_COLOR` in `deps.env` and the `theme` already in
 * the file. The caller decides when it may run (an interactive TTY, not under `-p`).
 *
 * @returns `{ written: true, file }` after `deps.write` succeeded, else `{ written: false }`.
 * @throws What Ink throws when the app fails (a write error is shown in the wizard, not thrown).
 */
export async function runWizard(deps: WizardDeps, io: WizardIo = {}): Promise<WizardOutcome> {
  // Ink and the wizard are imported here, not above, so that Ink renders live under CI=true too.
  const [{ render }, { Wizard }] = await importForTerminal(io.stdout ?? process.stdout, () =>
    Promise.all([import('ink'), import('./Wizard')]),
  );
  const named = deps.existing.theme;
  const shade = named === 'light' || named === 'dark' ? named : shadeFromColorFgBg(deps.env.COLORFGBG);
  const theme = makeTheme(shade ?? 'dark', noColorFromEnv(deps.env));
  let outcome: WizardOutcome = { written: false };
  let instance: Instance | undefined;
  const finish = (result: WizardOutcome) => {
    outcome = result;
    // Called after the last frame ("Saved to …") is committed, so unmounting leaves it on screen.
    instance?.unmount();
  };
  instance = render(
    <ThemeContext.Provider value={theme}>
      <Wizard deps={deps} onDone={finish} />
    </ThemeContext.Provider>,
    screenRenderOptions(io),
  );
  await instance.waitUntilExit();
  return outcome;
}

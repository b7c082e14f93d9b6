import type { Instance } from 'ink';
import { screenRenderOptions, type ScreenIo } from '../terminal/ink-options';
import { withoutRows } from '../terminal/ink-stdout';
import { importForTerminal } from '../terminal/live-terminal';
import { makeTheme, noColorFromEnv, ThemeContext } from '../widgets/theme';
import type { ChoiceItem } from '../widgets/ChoiceList';

export interface PickIo extends ScreenIo {
  /** Read for `NO_COLOR`; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Shows `items` in the terminal until the person picks one (`codey --resume` without an ID).
 * @returns the index picked, or undefined when they cancel.
 */
export async function pickOne(
  title: string,
  items: readonly ChoiceItem[],
  io: PickIo = {},
): Promise<number | undefined> {
  const [{ render }, { SessionPicker }] = await importForTerminal(io.stdout ?? process.stdout, () =>
    Promise.all([import('ink'), import('./SessionPicker')]),
  );
  let picked: number | undefined;
  let instance: Instance | undefined;
  const done = (index: number | undefined) => {
    picked = index;
    instance?.unmount();
  };
  // Ink gets a stream without rows, so it never clears the screen and the scrollback (ink-stdout.ts).
  const stdout = io.stdout ?? process.stdout;
  const tty = stdout.isTTY === true;
  instance = render(
    <ThemeContext.Provider value={makeTheme('dark', noColorFromEnv(io.env ?? process.env))}>
      <SessionPicker title={title} items={items} onDone={done} terminal={tty ? stdout : undefined} />
    </ThemeContext.Provider>,
    screenRenderOptions({ ...io, ...(tty ? { stdout: withoutRows(stdout) } : {}) }),
  );
  await instance.waitUntilExit();
  return picked;
}

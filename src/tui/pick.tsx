import type { Instance } from 'ink';
import { screenRenderOptions, type ScreenIo } from './ink-options';
import { importForTerminal } from './live-terminal';
import { makeTheme, noColorFromEnv, ThemeContext } from './theme';
import type { ChoiceItem } from './wizard/ChoiceList';

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
  let unended = false;
  const done = (index: number | undefined, lineOpen: boolean) => {
    picked = index;
    unended = lineOpen;
    instance?.unmount();
  };
  instance = render(
    <ThemeContext.Provider value={makeTheme('dark', noColorFromEnv(io.env ?? process.env))}>
      <SessionPicker title={title} items={items} onDone={done} />
    </ThemeContext.Provider>,
    screenRenderOptions(io),
  );
  await instance.waitUntilExit();
  // What is printed next starts a line of its own.
  if (unended) (io.stdout ?? process.stdout).write('\n');
  return picked;
}

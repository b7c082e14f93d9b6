import { stripVTControlCharacters } from 'node:util';
import { render } from 'ink-testing-library';
import type { WizardDeps, WizardOutcome } from '../../../src/tui/wizard/run';
import { Wizard } from '../../../src/tui/wizard/Wizard';
import { tick } from '../helpers';

/**
 * Lets Ink handle a key: a lone Esc is held until a setImmediate (it may start a sequence), so wait for
 * one first, then for timers and renders.
 */
export async function settle(): Promise<void> {
  await new Promise<void>((r) => setImmediate(r));
  await tick(25);
}

export const USER_FILE = '/home/u/.config/codey/config.json';

export interface Drive {
  /** Every write: [path, values]. */
  writes: [string, Record<string, unknown>][];
  outcomes: WizardOutcome[];
  /** The last frame, ANSI-stripped. */
  out: () => string;
  /** Every frame so far, ANSI-stripped. */
  frames: () => string[];
  /** Sends each key as one write, waiting after each. */
  keys: (...keys: string[]) => Promise<void>;
  /** Waits (up to 2 s) until `ready()` holds, for work that goes through the file system. */
  until: (ready: () => boolean) => Promise<void>;
  /** Waits (up to 2 s) until the wizard has reported its outcome; returns it. */
  outcome: () => Promise<WizardOutcome | undefined>;
}

/** Renders the wizard with a recording writer (unless `deps.write` is given) and sends `keys`. */
export async function drive(deps: Partial<WizardDeps>, ...keys: string[]): Promise<Drive> {
  const writes: Drive['writes'] = [];
  const outcomes: WizardOutcome[] = [];
  const full: WizardDeps = {
    env: {},
    userFile: USER_FILE,
    existing: {},
    isOnPath: async () => true,
    write: async (path, values) => {
      writes.push([path, values]);
    },
    ...deps,
  };
  const app = render(<Wizard deps={full} onDone={(o) => outcomes.push(o)} />);
  const strip = (f: string | undefined) => stripVTControlCharacters(f ?? '');
  const d: Drive = {
    writes,
    outcomes,
    out: () => strip(app.lastFrame()),
    frames: () => app.frames.map(strip),
    keys: async (...ks) => {
      for (const k of ks) {
        app.stdin.write(k);
        await settle();
      }
    },
    until: async (ready) => {
      for (let i = 0; i < 100 && !ready(); i++) await tick(20);
    },
    outcome: async () => {
      for (let i = 0; i < 100 && outcomes.length === 0; i++) await tick(20);
      return outcomes[0];
    },
  };
  // Keys sent before Ink listens to stdin (an effect after the first render) would be lost.
  await d.until(() => app.stdin.listenerCount('readable') > 0);
  await settle();
  await d.keys(...keys);
  return d;
}

/** A frame with its line wrapping and box borders undone, for phrases that may wrap. */
export function flat(text: string): string {
  return text.replace(/[│╭╮╰╯─]/g, ' ').replace(/\s+/g, ' ');
}

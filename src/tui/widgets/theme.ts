/**
 * Colours by role. `NO_COLOR` (https://no-color.org) leaves every colour role undefined, so Ink
 * prints no colour codes at all; bold, dim and inverse are styles, not colours, and stay.
 */
import { createContext, useContext } from 'react';

export interface Theme {
  noColor: boolean;
  accent?: string;
  muted?: string;
  error?: string;
  warning?: string;
  success?: string;
  added?: string;
  removed?: string;
  keyword?: string;
  string?: string;
  comment?: string;
  number?: string;
  link?: string;
  heading?: string;
  code?: string;
}

type Palette = Omit<Theme, 'noColor'>;

const dark: Palette = {
  accent: 'cyan',
  muted: 'gray',
  error: 'red',
  warning: 'yellow',
  success: 'green',
  added: 'green',
  removed: 'red',
  keyword: 'magenta',
  string: 'green',
  comment: 'gray',
  number: 'yellow',
  link: 'cyan',
  heading: 'cyan',
  code: 'yellow',
};

// Named colours, which terminals tune to their own palette (hex would fall to black in 16-colour
// terminals); no yellow or cyan, which fade on a white background.
const light: Palette = {
  accent: 'blue',
  muted: 'gray',
  error: 'red',
  warning: 'magenta',
  success: 'green',
  added: 'green',
  removed: 'red',
  keyword: 'magenta',
  string: 'green',
  comment: 'gray',
  number: 'blue',
  link: 'blue',
  heading: 'blue',
  code: 'magenta',
};

/** The theme for a `theme` setting; `noColor` true when `NO_COLOR` is set to a non-empty value. */
export function makeTheme(name: 'dark' | 'light', noColor: boolean): Theme {
  if (noColor) return { noColor: true };
  return { noColor: false, ...(name === 'light' ? light : dark) };
}

/** True when the environment asks for no colour (`NO_COLOR` present and non-empty). */
export function noColorFromEnv(env: NodeJS.ProcessEnv): boolean {
  return typeof env.NO_COLOR === 'string' && env.NO_COLOR !== '';
}

export const ThemeContext = createContext<Theme>(makeTheme('dark', false));

export function useTheme(): Theme {
  return useContext(ThemeContext);
}

import type { Command } from 'commander';
import type { SettingKey } from '../config/schema';
import { SETTING_DEFAULTS, SETTING_KEYS } from '../config/setting-defaults';
import { SETTING_META } from '../config/setting-meta';

/** The widest `codey --help` gets (columns), whatever the terminal's width. */
export const HELP_WIDTH = 80;

/** A terminal's width, at most {@link HELP_WIDTH} columns; that width when it is not a terminal. */
export const helpWidth = (stream: NodeJS.WriteStream): number =>
  Math.min(HELP_WIDTH, (stream.isTTY && stream.columns) || HELP_WIDTH);

/** `text`'s words in lines of at most `width` columns, each line starting with `indent`. */
function wrapWords(text: string, width = HELP_WIDTH, indent = ''): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join('\n');
}

/** A default as a person types it: `claude-opus-4-8`, `100`, `0.8`, `true`. */
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * What the help adds to a flag that sets `key`: `default claude-opus-4-8; env CODEY_MODEL,
 * ANTHROPIC_MODEL`, from the setting's default (src/config/setting-defaults.ts) and env names
 * (src/config/setting-meta.ts).
 * A `--no-X` flag only turns its setting off, so its default is not repeated; an empty list is no
 * default worth showing.
 */
function settingNote(key: SettingKey): string {
  const meta = SETTING_META[key];
  const value = meta.flag?.name.startsWith('--no-') ? undefined : SETTING_DEFAULTS[key];
  const hasDefault = value !== undefined && !(Array.isArray(value) && value.length === 0);
  return [hasDefault ? `default ${shown(value)}` : '', meta.env ? `env ${meta.env.join(', ')}` : '']
    .filter(Boolean)
    .join('; ');
}

/**
 * `key=default` for every setting whose default is a value (an empty list says nothing); a map is
 * `key.name=value` for each of its entries.
 */
function defaultsLine(): string {
  return SETTING_KEYS.flatMap((key) => {
    const value = SETTING_DEFAULTS[key];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) return [];
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return Object.entries(value).map(([k, v]) => `${key}.${k}=${shown(v)}`);
    return [`${key}=${shown(value)}`];
  }).join(' ');
}

/** What `codey --help` shows after the options, in lines of at most {@link HELP_WIDTH} columns. */
function helpAfterText(): string {
  const paragraphs = [
    'Exit codes: 0 done, 1 failed (API error, max turns, refusal, no answer), 2 usage or configuration ' +
      'error, 130 interrupted (Ctrl-C), 129 SIGHUP, 141 stdout closed (| head -1), 143 SIGTERM.',
    'Configuration: flags > env (CODEY_*, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_MODEL) > ' +
      'project file (.codeyrc.json, .codeyrc.yaml, "codey" in package.json; never a .js/.ts form) > ' +
      '$XDG_CONFIG_HOME/codey/config.json.',
    'Docs: README.md',
  ];
  return [
    '',
    'Commands:',
    '  codey setup              run the first-run setup again',
    '  codey eval [DIR...]      run eval cases (codey eval --help; README "Evals")',
    '',
    wrapWords(
      'Settings and their defaults (config file keys; README "Configuration" gives each one\'s ' +
        'environment variable):',
    ),
    wrapWords(defaultsLine(), HELP_WIDTH, '  '),
    '',
    ...paragraphs.map((p) => wrapWords(p)),
  ].join('\n');
}

/**
 * `program` with its help's details: each setting flag's default and environment variables appended
 * to its description (the flags of SETTING_META), then {@link helpAfterText} after the options.
 */
export function withHelpDetails(program: Command): Command {
  for (const key of SETTING_KEYS) {
    const flag = SETTING_META[key].flag;
    const option = program.options.find((o) => o.long === flag?.name);
    const note = settingNote(key);
    if (option && note) option.description = `${option.description} (${note})`;
  }
  return program.addHelpText('after', `${helpAfterText()}\n`);
}

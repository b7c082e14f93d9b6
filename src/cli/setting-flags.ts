/**
 * The command-line flags that set a setting, made from each setting's `flag` in SETTING_META
 * (src/config/setting-meta.ts): the commander option, its value parser, and the values parsed back under
 * the setting's key. A new setting flag is its SETTING_META entry, nothing more.
 */
import { InvalidArgumentError, Option } from 'commander';
import type { CliOptions } from './cli-options';
import type { SettingKey } from '../config/schema';
import { numberText, SETTING_DEFAULTS, SETTING_KEYS } from '../config/setting-defaults';
import { SETTING_META, type SettingFlag } from '../config/setting-meta';

/** commander's option name for a flag: `--max-turns` is `maxTurns`, `--no-skills` is `skills`. */
const optionName = (flag: SettingFlag): string =>
  flag.name.replace(/^--(no-)?/, '').replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * A number flag's text as a number (`expected a number, got "many"` is a usage error at once). The
 * setting's schema checks the number with every other value when the settings are resolved
 * (`--max-turns 0 is not valid: expected a whole number of 1 or more`), so the flags are parsed
 * without loading it.
 */
function parseNumber(text: string): number {
  const value = numberText(text);
  if (value === undefined) throw new InvalidArgumentError(`expected a number, got "${text}"`);
  return value;
}

/**
 * The option for `key`'s flag: its placeholder and help, and how its value is read. A setting whose
 * default is a number takes a number (test/cli/flags.test.ts checks this against the schema).
 */
function settingOption(key: SettingKey, flag: SettingFlag): Option {
  const option = new Option(flag.arg ? `${flag.name} ${flag.arg}` : flag.name, flag.help);
  if (flag.repeats) return option.argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]);
  if (typeof SETTING_DEFAULTS[key] === 'number') return option.argParser(parseNumber);
  return option;
}

/** A setting's flag and its other names (`--allow`, then `--allowedTools`); none without a flag. */
const namesOf = (key: SettingKey): readonly SettingFlag[] => {
  const flag = SETTING_META[key].flag;
  return flag ? [flag, ...(flag.aliases ?? [])] : [];
};

/** Every setting flag's option, each followed by its other names, in SETTING_META's order. */
export function settingOptions(): Option[] {
  return SETTING_KEYS.flatMap((key) => namesOf(key).map((flag) => settingOption(key, flag)));
}

/**
 * The values of the flags that set a setting, under the setting's key, from commander's parsed
 * options; a flag not given, or a repeatable one given no time, is absent; a `--no-X` flag given is
 * `false`. A list setting takes the values of its flag and of its other names, in that order
 * (`--allow` then `--allowedTools`); a name with a fixed value gives it (`--dangerously-skip-permissions`
 * is `bypass`); `--allow` adds to the configured rules (resolveSettings merges
 * them; the session splits them at commas, as `CODEY_ALLOW`).
 */
export function flagValues(opts: CliOptions): Record<string, unknown> {
  const given = opts as unknown as Record<string, unknown>;
  const flags: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    for (const flag of namesOf(key)) {
      const negated = flag.name.startsWith('--no-');
      const named = given[optionName(flag)];
      const v = flag.sets !== undefined && named === true ? flag.sets : named;
      if (v === undefined || (Array.isArray(v) && v.length === 0) || (negated && v !== false)) continue;
      const before = flags[key];
      flags[key] = Array.isArray(before) && Array.isArray(v) ? [...(before as unknown[]), ...v] : v;
    }
  }
  return flags;
}

import { describe, expect, it } from 'vitest';
import type { CliOptions } from '../../src/cli/cli-options';
import { buildProgram } from '../../src/cli/program';
import { flagValues } from '../../src/cli/run';
import { SETTING_KEYS, SETTING_META } from '../../src/config/schema';

const parse = (...args: string[]) => {
  const program = buildProgram();
  program.parse(['node', 'codey', ...args]);
  return program.opts<CliOptions>();
};

describe('flags that set a setting come from the schema', () => {
  it('every setting with a flag takes its value from that flag, under the setting key', () => {
    expect(
      flagValues(
        parse('--model', 'm', '--base-url', 'http://127.0.0.1:9', '--max-turns', '3', '--allow', 'a,b'),
      ),
    ).toEqual({ model: 'm', base_url: 'http://127.0.0.1:9', max_turns: 3, allow: ['a,b'] });
  });

  it('--no-skills and --no-agents set their settings to false', () => {
    expect(flagValues(parse('--no-skills', '--no-agents'))).toEqual({ skills: false, agents: false });
    expect(flagValues(parse('--no-web'))).toEqual({});
  });

  it('a flag not given leaves its setting to the rest of the ladder', () => {
    expect(flagValues(parse())).toEqual({});
  });

  it('every flag named in SETTING_META is an option of the program', () => {
    const longs = buildProgram().options.map((o) => o.long);
    const named = SETTING_KEYS.flatMap((k) => SETTING_META[k].flag ?? []);
    expect(named.filter((f) => !longs.includes(f))).toEqual([]);
  });
});

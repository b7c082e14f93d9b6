import { describe, expect, it } from 'vitest';
import type { CliOptions } from '../../src/cli/cli-options';
import { longNames, normalizeArgv } from '../../src/cli/argv';
import { buildProgram } from '../../src/cli/program';
import { flagValues } from '../../src/cli/setting-flags';
import { baseType, SETTING_KEYS, settingSchemas } from '../../src/config/schema';
import { SETTING_META } from '../../src/config/setting-meta';

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

  it("Claude Code's names add to the same setting as codey's, and --append-system-prompt sets its own", () => {
    expect(
      flagValues(
        parse(
          '--allow',
          'a',
          '--allowedTools',
          'b',
          'c',
          '--disallowedTools',
          'd',
          '--append-system-prompt',
          'Be brief.',
        ),
      ),
    ).toEqual({ allow: ['a', 'b', 'c'], deny: ['d'], append_system_prompt: 'Be brief.' });
  });

  it('--permission-mode takes a mode; --dangerously-skip-permissions is --permission-mode bypass', () => {
    expect(flagValues(parse('--permission-mode', 'acceptEdits'))).toEqual({ permission_mode: 'acceptEdits' });
    expect(flagValues(parse('--dangerously-skip-permissions'))).toEqual({ permission_mode: 'bypass' });
  });

  it('a flag not given leaves its setting to the rest of the ladder', () => {
    expect(flagValues(parse())).toEqual({});
  });

  it('every flag named in SETTING_META is an option of the program', () => {
    const longs = buildProgram().options.map((o) => o.long);
    const named = SETTING_KEYS.flatMap((k) => {
      const flag = SETTING_META[k].flag;
      return flag ? [flag.name, ...(flag.aliases ?? []).map((a) => a.name)] : [];
    });
    expect(named).toContain('--allowedTools');
    expect(named.filter((f) => !longs.includes(f))).toEqual([]);
  });

  it('a number flag is read as a number; a text that is none is a usage error at once', () => {
    expect(flagValues(parse('--max-turns', '12'))).toEqual({ max_turns: 12 });
    const refused = (value: string) => {
      const program = buildProgram()
        .exitOverride()
        .configureOutput({ writeErr: () => {} });
      try {
        program.parse(['node', 'codey', '--max-turns', value]);
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(refused('many')).toContain('expected a number, got "many"');
    // The schema checks the number when the settings are resolved (test/e2e/print.test.ts).
    expect(refused('0')).toBe('accepted');
  });

  it('every setting flag whose schema takes a number gives a number, and no other flag does', () => {
    for (const key of SETTING_KEYS) {
      const flag = SETTING_META[key].flag;
      if (!flag?.arg || flag.repeats) continue;
      const value = flagValues(parse(flag.name, '12'))[key];
      expect({ key, type: typeof value }).toEqual({
        key,
        type: baseType(settingSchemas[key]) === 'number' ? 'number' : 'string',
      });
    }
  });

  it('the single-dash form is accepted for every setting flag', () => {
    const longs = longNames(buildProgram());
    for (const k of SETTING_KEYS) {
      const name = SETTING_META[k].flag?.name;
      if (name) expect(longs.has(name.slice(2)), name).toBe(true);
    }
    expect(normalizeArgv(['-max-turns=3', '-no-skills', '-p'], longs)).toEqual([
      '--max-turns=3',
      '--no-skills',
      '-p',
    ]);
  });
});

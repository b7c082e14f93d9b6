import { describe, expect, it } from 'vitest';
import { settingDefault, settingSchemas, type SettingKey } from '../../src/config/schema';
import { numberText, SETTING_DEFAULTS, SETTING_KEYS } from '../../src/config/setting-defaults';

describe('the plain defaults table (what --help shows without loading the schema)', () => {
  it("gives every setting, in the schema's order", () => {
    expect(SETTING_KEYS).toEqual(Object.keys(settingSchemas));
  });

  it('gives each setting the default its schema gives, and none where the schema has none', () => {
    const differ = SETTING_KEYS.filter(
      (key: SettingKey) => JSON.stringify(SETTING_DEFAULTS[key]) !== JSON.stringify(settingDefault(key)),
    );
    expect(differ).toEqual([]);
    expect(SETTING_DEFAULTS.max_turns).toBe(100);
    expect(SETTING_DEFAULTS.base_url).toBeUndefined();
  });

  it('reads a number as a person types it, and nothing else', () => {
    expect([' 12 ', '.5', '-3', '2.'].map(numberText)).toEqual([12, 0.5, -3, 2]);
    expect(['12px', '1e3', '', 'many'].map(numberText)).toEqual([undefined, undefined, undefined, undefined]);
  });
});

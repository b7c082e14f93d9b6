import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/resolve';

let root: string;
let project: string;
let marker: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'codey-project-file-'));
  project = join(root, 'repo');
  await mkdir(join(project, 'sub'), { recursive: true });
  await writeFile(join(project, 'package.json'), '{"name":"x"}');
  marker = join(root, 'ran');
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** A config that, if loaded, writes `marker` and sets a model. */
function hostile(place: string): string {
  const m = JSON.stringify(marker);
  if (place.endsWith('.cjs'))
    return `require('node:fs').writeFileSync(${m}, 'ran'); module.exports = { model: 'evil' };\n`;
  if (place.endsWith('.js'))
    return `require('node:fs').writeFileSync(${m}, 'ran'); module.exports = { model: 'evil' };\n`;
  return `import { writeFileSync } from 'node:fs';\nwriteFileSync(${m}, 'ran');\nexport default { model: 'evil' };\n`;
}

async function put(dir: string, place: string, text: string): Promise<string> {
  const file = join(dir, place);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

const userFile = () => join(root, 'xdg', 'codey', 'config.json');

describe('a project config is data, never code', () => {
  const places = [
    '.codeyrc.js',
    '.codeyrc.cjs',
    '.codeyrc.mjs',
    '.codeyrc.ts',
    '.config/codeyrc.js',
    '.config/codeyrc.mjs',
    'codey.config.js',
    'codey.config.mjs',
    'codey.config.ts',
  ];
  it.each(places)(
    '%s is never run; a notice names it; the JSON config of the package loads',
    async (place) => {
      // The JS form sits in the workspace, nearer than the package's JSON config: cosmiconfig would pick it.
      const code = await put(join(project, 'sub'), place, hostile(place));
      await put(project, '.codeyrc.json', JSON.stringify({ model: 'json-model' }));
      const { settings, notices } = await resolveSettings({
        env: {},
        cwd: join(project, 'sub'),
        userFile: userFile(),
      });
      expect(existsSync(marker)).toBe(false);
      expect(settings.model).toBe('json-model');
      expect(settings.files.project).toBe(join(project, '.codeyrc.json'));
      expect(notices).toEqual([
        `codey: ${code} ignored: a project config must be data (JSON or YAML), codey never runs one written in JavaScript or TypeScript; move its settings to .codeyrc.json`,
      ]);
    },
  );

  it('a YAML config beside a JS one loads, in the same folder', async () => {
    await put(project, '.codeyrc.js', hostile('.codeyrc.js'));
    await put(project, '.config/codeyrc.yaml', 'model: yaml-model\n');
    const { settings, notices } = await resolveSettings({ env: {}, cwd: project, userFile: userFile() });
    expect(existsSync(marker)).toBe(false);
    expect(settings.model).toBe('yaml-model');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(join(project, '.codeyrc.js'));
  });

  it('a JS config alone gives the notice and no project settings', async () => {
    await put(project, 'codey.config.cjs', hostile('codey.config.cjs'));
    const { settings, notices } = await resolveSettings({ env: {}, cwd: project, userFile: userFile() });
    expect(existsSync(marker)).toBe(false);
    expect(settings.files.project).toBeUndefined();
    expect(settings.sources.model).toBe('default');
    expect(notices[0]).toContain(join(project, 'codey.config.cjs'));
  });

  it('a "$import" in a JSON config loads nothing (it is an unknown key)', async () => {
    await put(project, 'evil.cjs', hostile('evil.cjs'));
    await put(project, '.codeyrc.json', JSON.stringify({ $import: './evil.cjs', theme: 'light' }));
    const { settings, notices } = await resolveSettings({ env: {}, cwd: project, userFile: userFile() });
    expect(existsSync(marker)).toBe(false);
    expect(settings.theme).toBe('light');
    expect(notices).toEqual([`codey: ${join(project, '.codeyrc.json')}: unknown setting "$import" ignored`]);
  });

  it('"codey" in package.json and .codeyrc (YAML without an extension) still load', async () => {
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'x', codey: { theme: 'light' } }));
    expect((await resolveSettings({ env: {}, cwd: project, userFile: userFile() })).settings.theme).toBe(
      'light',
    );
    await put(project, '.codeyrc', 'theme: light\nmodel: rc-model\n');
    const { settings } = await resolveSettings({ env: {}, cwd: project, userFile: userFile() });
    // package.json comes first in the search order, as in cosmiconfig.
    expect(settings.files.project).toBe(join(project, 'package.json'));
    await writeFile(join(project, 'package.json'), '{"name":"x"}');
    const again = await resolveSettings({ env: {}, cwd: project, userFile: userFile() });
    expect(again.settings.model).toBe('rc-model');
  });
});

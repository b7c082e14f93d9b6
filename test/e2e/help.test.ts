import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settingSchemas } from '../../src/config/schema';
import { codey, removeSandbox, sandbox, type Sandbox } from '../support/cli';

let box: Sandbox;
beforeEach(async () => {
  box = await sandbox('repo-empty', 'http://127.0.0.1:9');
});
afterEach(() => removeSandbox(box));

describe('codey --help (the built CLI)', () => {
  it("shows the schema's defaults within 80 columns", async () => {
    const r = await codey(box, ['--help']);
    expect(r.exitCode).toBe(0);
    const flat = r.stdout.replace(/\s+/g, ' ');
    expect(flat).toContain(`(default ${settingSchemas.max_turns.parse(undefined)}; env CODEY_MAX_TURNS)`);
    expect(flat).toContain('model id (default claude-opus-4-8;');
    expect(flat).toContain(` max_agent_depth=${settingSchemas.max_agent_depth.parse(undefined)} `);
    expect(flat).toContain('141 stdout closed');
    expect(r.stdout.split('\n').filter((l) => l.length > 80)).toEqual([]);
  });
});

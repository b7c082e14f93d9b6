import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL } from '../../src/config/schema';
import { codey } from '../support/cli';
import { e2eSandbox } from '../support/e2e-sandbox';
import { reply } from '../support/fake-anthropic';

const e2e = e2eSandbox();

const userFile = () => join(e2e.box.root, 'config', 'codey', 'config.json');

/** The example file codey's text gives (the JSON object after "e.g."). */
const exampleIn = (text: string) => JSON.parse(/e\.g\. (\{.*\})\n/.exec(text)?.[1] ?? 'null') as unknown;

describe('codey setup and a first interactive run without a terminal (stdin not a TTY)', () => {
  it.each([
    ['codey setup', ['setup'], '`codey setup` needs a terminal'],
    ['the first codey', [], 'the interactive session needs a terminal'],
  ])('%s says how to configure by environment and file, and exits 2', async (_name, args, head) => {
    const r = await codey(e2e.box, args);
    expect(r.exitCode).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(head);
    expect(lines[0]).toContain('export ANTHROPIC_API_KEY=sk-ant-…');
    expect(lines[0]).toContain(`put other settings in ${userFile()} (mode 0600)`);
    expect(exampleIn(r.stderr)).toEqual({ model: 'claude-opus-4-8' });
    expect(exampleIn(r.stderr)).toEqual({ model: DEFAULT_MODEL });
    expect(lines[1]).toBe(
      'codey: then run: codey -p "what to do" (README "Configuration" lists every setting)',
    );
    expect(existsSync(userFile())).toBe(false);
  });

  it('the example file, written where it says, is a config codey -p takes without a word', async () => {
    const r = await codey(e2e.box, ['setup']);
    await mkdir(join(e2e.box.root, 'config', 'codey'), { recursive: true });
    await writeFile(userFile(), JSON.stringify(exampleIn(r.stderr)), { mode: 0o600 });
    e2e.fake.enqueue(reply.text('configured'));
    const p = await codey(e2e.box, ['-p', 'hi']);
    expect(p.exitCode).toBe(0);
    expect(p.stdout).toBe('configured');
    expect(p.stderr).toBe('');
    expect(e2e.fake.messageRequests[0]!.body.model).toBe(DEFAULT_MODEL);
  });

  it('once the user file exists, codey without a terminal only points to -p', async () => {
    await mkdir(join(e2e.box.root, 'config', 'codey'), { recursive: true });
    await writeFile(userFile(), '{}', { mode: 0o600 });
    const r = await codey(e2e.box, []);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      'codey: the interactive session needs a terminal; for one-shot use: codey -p "what to do"',
    );
  });
});

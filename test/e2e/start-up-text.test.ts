import { cp, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, CANARY, codey, removeSandbox, sandbox, type Sandbox } from '../support/cli';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';

let fake: FakeAnthropic;
let box: Sandbox;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-empty', fake.url);
});
afterEach(async () => {
  await fake.close();
  await removeSandbox(box);
});

/** Any terminal control a person's terminal could act on: C0 but tab and newline, DEL, C1. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const OSC52 = '\u001b]52;c;cHduZWQ=\u0007';

describe('what codey prints for a person before the session starts', () => {
  it('a config key and value holding OSC 52 / CSI 2J / C1 are quoted, capped and inert', async () => {
    await writeFile(
      join(box.cwd, '.codeyrc.json'),
      JSON.stringify({
        [`${OSC52}\u001b[2J${'k'.repeat(200)}`]: 1,
        max_turns: '\u001b]0;title\u0007',
        web_allowed_domains: ['ok.example', 'c1\u009b2J.example'],
      }),
    );
    fake.enqueue(reply.text('done'));
    const r = await codey(box, ['-p', 'hi']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toMatch(CONTROL);
    // The key is shown escaped (readable) and cut.
    expect(r.stderr).toContain('unknown setting "\\u001b]52;c;cHduZWQ=\\u0007\\u001b[2Jkkk');
    expect(r.stderr).toMatch(/unknown setting "[^\n]{70,90}… ignored/);
  });

  it('a JSON parse error quoting ESC…BEL says line and column and prints no file text', async () => {
    await writeFile(join(box.cwd, '.codeyrc.json'), `{"a": \u001b]0;owned\u0007 }`);
    const r = await codey(box, ['-p', 'hi']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toMatch(CONTROL);
    expect(r.stderr).not.toContain('owned');
    expect(r.stderr).toContain('.codeyrc.json: line 1, column 7: not valid JSON');
  });

  it('a YAML parse error prints no file text', async () => {
    await writeFile(join(box.cwd, '.codeyrc'), `a: b\n  ${OSC52}: : [\n`);
    const r = await codey(box, ['-p', 'hi']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toMatch(CONTROL);
    expect(r.stderr).not.toContain('cHduZWQ');
  });

  it('a project config linked to /proc/self/environ is refused without printing the key', async () => {
    await symlink('/proc/self/environ', join(box.cwd, '.codeyrc'));
    const r = await codey(box, ['-p', 'hi']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('it is a link to a file outside');
    for (let i = 0; i + 12 <= CANARY.length; i++) expect(r.stderr).not.toContain(CANARY.slice(i, i + 12));
  });

  it('a workspace folder named with ESC shows inert in notices', async () => {
    const odd = join(box.root, 'w\u001b]0;pwn\u0007');
    await cp(box.cwd, odd, { recursive: true });
    await writeFile(join(odd, 'codey.config.js'), 'x');
    await writeFile(join(odd, '.codeyrc.json'), '{"zzz":1}');
    fake.enqueue(reply.text('done'));
    const r = await execa('node', [BIN, '-p', 'hi', '--verbose'], {
      cwd: odd,
      env: box.env,
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    expect(r.stderr).toContain('codey.config.js ignored');
    expect(r.stderr).toContain('unknown setting "zzz"');
    expect(r.stderr).not.toMatch(CONTROL);
  });

  it("commander's own messages (an unknown option echoing the argument) are inert", async () => {
    const r = await codey(box, ['-p', 'x', `-\u001b]0;x\u0007`]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('unknown option');
    expect(r.stderr).not.toMatch(CONTROL);
  });
});

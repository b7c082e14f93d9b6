import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { codey } from '../support/cli';
import { e2eSandbox } from '../support/e2e-sandbox';
import { reply } from '../support/fake-anthropic';

const e2e = e2eSandbox();

const userFile = () => join(e2e.box.env.XDG_CONFIG_HOME, 'codey', 'config.json');
async function put(file: string, text: string) {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}
const model = (i = 0) => (e2e.fake.messageRequests[i].body as { model: string }).model;

describe('the API key', () => {
  it('with a character that is not ASCII is refused at once (exit 2), naming the character, and nothing is sent', async () => {
    const r = await codey(e2e.box, ['-p', 'hi'], { env: { ANTHROPIC_API_KEY: 'sk-ant-api03-ab\u00a0cd' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      'codey: the API key has a space or control character (U+00A0) at character 16',
    );
    expect(r.stderr).not.toContain('sk-ant-api03');
    expect(e2e.fake.messageRequests).toHaveLength(0);
  });
});

describe('a cloned repository’s config files', () => {
  it('JS and TS forms never run (nor cosmiconfig’s meta config); each is named; the JSON config loads', async () => {
    const marker = join(e2e.box.root, 'ran');
    const js = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); module.exports = { model: 'evil' };\n`;
    const mjs = `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default { model: 'evil' };\n`;
    await put(
      join(e2e.box.cwd, 'package.json'),
      JSON.stringify({ name: 'x', codey: { model: 'pkg-model' } }),
    );
    await put(join(e2e.box.cwd, '.codeyrc.cjs'), js);
    await put(join(e2e.box.cwd, 'codey.config.mjs'), mjs);
    await put(join(e2e.box.cwd, '.config', 'config.mjs'), mjs);
    e2e.fake.enqueue(reply.text('ok'));
    const r = await codey(e2e.box, ['-p', 'hi']);
    expect(r.exitCode).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(model()).toBe('pkg-model');
    expect(r.stderr).toContain(
      `codey: ${join(e2e.box.cwd, '.codeyrc.cjs')} ignored: a project config must be data`,
    );
    expect(r.stderr).toContain(
      `codey: ${join(e2e.box.cwd, 'codey.config.mjs')} ignored: a project config must be data`,
    );
  });

  it('cannot turn on hosted search: a notice names the key and the user file, and no web tool is sent', async () => {
    await put(
      join(e2e.box.cwd, '.codeyrc.json'),
      JSON.stringify({ web_provider: 'hosted', web_fetch: 'hosted' }),
    );
    e2e.fake.enqueue(reply.text('ok'));
    const r = await codey(e2e.box, ['-p', 'hi']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(
      `codey: ${join(e2e.box.cwd, '.codeyrc.json')}: web_provider "hosted" is ignored in a project file (a project file may turn web search off, not on or to another provider); put it in ${userFile()}, or set CODEY_WEB_PROVIDER`,
    );
    expect(e2e.fake.messageRequests[0].raw).not.toContain('web_');
  });
});

describe('environment, flags and files', () => {
  it('ANTHROPIC_MODEL is honoured, CODEY_MODEL and --model win over it', async () => {
    e2e.fake.enqueue(reply.text('ok'), reply.text('ok'), reply.text('ok'));
    await codey(e2e.box, ['-p', 'hi'], { env: { ANTHROPIC_MODEL: 'anthropic-model' } });
    await codey(e2e.box, ['-p', 'hi'], {
      env: { ANTHROPIC_MODEL: 'anthropic-model', CODEY_MODEL: 'codey-model' },
    });
    await codey(e2e.box, ['-p', 'hi', '--model', 'flag-model'], {
      env: { ANTHROPIC_MODEL: 'anthropic-model' },
    });
    expect([model(0), model(1), model(2)]).toEqual(['anthropic-model', 'codey-model', 'flag-model']);
  });

  it('CODEY_ALLOW and --allow add to the user file’s rules; --verbose lists only rules in force and why the web is off', async () => {
    await put(userFile(), JSON.stringify({ allow: ['edit_file', 'web_fetch'], web_provider: 'brave' }));
    e2e.fake.enqueue(reply.text('ok'));
    const r = await codey(e2e.box, ['-p', 'hi', '--verbose', '--allow', 'glob'], {
      env: { CODEY_ALLOW: 'bash(npm test)' },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('codey: the rule "web_fetch" names no tool of this session');
    expect(r.stderr).toContain('codey: allow rules: edit_file, bash(npm test), glob\n');
    expect(r.stderr).toMatch(
      /grep, spawn_agent \(web off: web_provider is brave but BRAVE_API_KEY is not set; /,
    );
    expect(r.stderr).not.toContain('web: brave');
  });

  it('a bad flag value is a usage error with its reason and no "ignored"', async () => {
    const url = await codey(e2e.box, ['-p', 'hi', '--base-url', 'not a url']);
    expect(url.exitCode).toBe(2);
    expect(url.stderr).toBe(
      'codey: error: --base-url "not a url" is not valid: expected an http:// or https:// URL\ncodey: see codey --help',
    );
    const empty = await codey(e2e.box, ['-p', 'hi', '--model', '']);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('--model "" is not valid: expected a model id, got an empty string');
    expect(e2e.fake.messageRequests).toHaveLength(0);
  });

  it('a user config of [] is called an array, not invalid JSON', async () => {
    await put(userFile(), '[]');
    const r = await codey(e2e.box, ['-p', 'hi']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${userFile()} holds an array, not an object of settings`);
    expect(r.stderr).not.toContain('not valid JSON');
  });
});

describe('the launcher and help', () => {
  it('codey setup --help prints the setup command’s own help', async () => {
    const r = await codey(e2e.box, ['setup', '--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^Usage: codey setup/);
    expect(r.stdout).not.toContain('--output-format');
  });

  it('before a build, codey --help says to run npm ci, with no stack trace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'codey-unbuilt-'));
    try {
      const repo = resolve(import.meta.dirname, '../..');
      await cp(join(repo, 'bin'), join(dir, 'bin'), { recursive: true });
      await cp(join(repo, 'package.json'), join(dir, 'package.json'));
      const r = await execa('node', [join(dir, 'bin', 'codey.js'), '--help'], { reject: false });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('run npm ci first');
      expect(r.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|\n\s+at /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a project file the person trusts', () => {
  it('in -p, what it would widen is ignored with a hint how to trust; once trusted it applies', async () => {
    const rcFile = join(e2e.box.cwd, '.codeyrc.json');
    const data = { allow: ['bash(echo hi)'] };
    await put(rcFile, JSON.stringify(data));
    e2e.fake.enqueue(reply.toolUse('bash', { command: 'echo hi' }), reply.text('refused'));
    const untrusted = await codey(e2e.box, ['-p', 'say hi', '--output-format', 'json']);
    expect(untrusted.stderr).toContain(
      `codey: ${rcFile}: allow ["bash(echo hi)"] is ignored in a project file`,
    );
    expect(untrusted.stderr).toContain(
      `codey: to use the settings of ${rcFile} above, run \`codey trust grant\` here (or run codey here once and answer yes when it asks)`,
    );
    expect(JSON.parse(untrusted.stdout).permission_denials).toHaveLength(1);

    // What the interactive trust question writes when the person answers yes.
    const { settingsDigest, trustFile } = await import('../../src/config/trust');
    await put(trustFile(e2e.box.env), JSON.stringify({ [rcFile]: settingsDigest(data) }));
    e2e.fake.enqueue(reply.toolUse('bash', { command: 'echo hi' }), reply.text('ran'));
    const trusted = await codey(e2e.box, ['-p', 'say hi', '--output-format', 'json']);
    expect(trusted.stderr).not.toContain('is ignored in a project file');
    expect(JSON.parse(trusted.stdout).permission_denials).toEqual([]);

    // Any change to the file's settings needs a new answer.
    await put(rcFile, JSON.stringify({ allow: ['bash(echo hi)', 'bash'] }));
    e2e.fake.enqueue(reply.text('ok'));
    const changed = await codey(e2e.box, ['-p', 'hello']);
    expect(changed.stderr).toContain('is ignored in a project file');
  });
});

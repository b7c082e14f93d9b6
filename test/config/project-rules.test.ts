import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FlagError, resolveSettings } from '../../src/config/resolve';
import { SETTING_KEYS } from '../../src/config/schema';
import { SETTING_META } from '../../src/config/setting-meta';

let root: string;
let project: string;
let rc: string;
let userFile: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'codey-rules-'));
  project = join(root, 'repo');
  await mkdir(project);
  await writeFile(join(project, 'package.json'), '{"name":"x"}');
  rc = join(project, '.codeyrc.json');
  userFile = join(root, 'xdg', 'codey', 'config.json');
  await mkdir(join(root, 'xdg', 'codey'), { recursive: true });
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function resolveWith(
  projectValues: Record<string, unknown> | undefined,
  userValues: Record<string, unknown> | undefined,
  env: Record<string, string> = {},
  flags: Record<string, unknown> = {},
) {
  if (projectValues) await writeFile(rc, JSON.stringify(projectValues));
  if (userValues) await writeFile(userFile, JSON.stringify(userValues));
  const r = await resolveSettings({ flags, env, cwd: project, userFile });
  // Untrusted, what would widen is held for the trust question: its notices count as notices here.
  return { ...r, notices: [...r.notices, ...(r.held?.notices ?? [])] };
}

describe('a project file may narrow, never widen', () => {
  it('cannot turn on hosted search: ignored with a notice naming the key, the user file and the variable', async () => {
    const { settings, notices } = await resolveWith({ web_provider: 'hosted', theme: 'light' }, undefined);
    expect(settings.web_provider).toBe('none');
    expect(settings.sources.web_provider).toBe('default');
    expect(settings.theme).toBe('light');
    expect(notices).toEqual([
      `codey: ${rc}: web_provider "hosted" is ignored in a project file (a project file may turn web search off, not on or to another provider); put it in ${userFile}, or set CODEY_WEB_PROVIDER`,
    ]);
  });

  it('cannot switch the person’s provider to another one, but may turn it off', async () => {
    const widened = await resolveWith({ web_provider: 'command' }, { web_provider: 'brave' });
    expect(widened.settings.web_provider).toBe('brave');
    expect(widened.notices).toHaveLength(1);
    const off = await resolveWith({ web_provider: 'none' }, { web_provider: 'brave' });
    expect(off.settings.web_provider).toBe('none');
    expect(off.settings.sources.web_provider).toBe('project');
    expect(off.notices).toEqual([]);
  });

  it('may turn the sandbox on, never off, and may not let sandboxed commands run without asking', async () => {
    const on = await resolveWith({ sandbox: 'on' }, undefined);
    expect(on.settings.sandbox).toBe('on');
    expect(on.notices).toEqual([]);
    const off = await resolveWith({ sandbox: 'off', sandbox_auto_allow: true }, { sandbox: 'on' });
    expect(off.settings.sandbox).toBe('on');
    expect(off.settings.sandbox_auto_allow).toBe(false);
    expect(off.notices).toHaveLength(2);
    expect(off.notices.join('\n')).toContain('a project file may turn the sandbox on, not off');
  });

  it('cannot move web_fetch to hosted (it cannot be approved call by call); may move it to none', async () => {
    const widened = await resolveWith(
      { web_fetch: 'hosted' },
      { web_provider: 'hosted', web_fetch: 'local' },
    );
    expect(widened.settings.web_fetch).toBe('local');
    expect(widened.notices[0]).toContain('web_fetch "hosted" is ignored in a project file');
    const narrowed = await resolveWith({ web_fetch: 'none' }, { web_provider: 'hosted' });
    expect(narrowed.settings.web_fetch).toBe('none');
    expect(narrowed.notices).toEqual([]);
  });

  it('may lower web_max_uses, not raise it', async () => {
    const raised = await resolveWith({ web_max_uses: 50 }, { web_max_uses: 5 });
    expect(raised.settings.web_max_uses).toBe(5);
    expect(raised.notices[0]).toContain('web_max_uses 50 is ignored in a project file');
    expect((await resolveWith({ web_max_uses: 3 }, { web_max_uses: 5 })).settings.web_max_uses).toBe(3);
    // Unset means no cap, so any cap lowers it.
    expect((await resolveWith({ web_max_uses: 50 }, {})).settings.web_max_uses).toBe(50);
  });

  it('may only allow domains (or subdomains) the person allows', async () => {
    const user = { web_allowed_domains: ['example.com'] };
    const wider = await resolveWith({ web_allowed_domains: ['example.com', 'evil.test'] }, user);
    expect(wider.settings.web_allowed_domains).toEqual(['example.com']);
    expect(wider.notices).toHaveLength(1);
    const narrower = await resolveWith({ web_allowed_domains: ['docs.example.com'] }, user);
    expect(narrower.settings.web_allowed_domains).toEqual(['docs.example.com']);
  });

  it('adds deny rules and blocked domains to the person’s, and cannot remove theirs', async () => {
    const { settings, notices } = await resolveWith(
      { deny: ['bash(curl:*)'], web_blocked_domains: [] },
      { deny: ['bash(rm:*)'], web_blocked_domains: ['evil.test'] },
    );
    expect(settings.deny).toEqual(['bash(rm:*)', 'bash(curl:*)']);
    expect(settings.web_blocked_domains).toEqual(['evil.test']);
    expect(notices).toEqual([]);
    const empty = await resolveWith({ deny: [] }, { deny: ['bash(rm:*)'] });
    expect(empty.settings.deny).toEqual(['bash(rm:*)']);
  });

  it('the same values are taken from the user file, the environment and flags', async () => {
    const { settings, notices } = await resolveWith(
      undefined,
      { web_provider: 'hosted', web_fetch: 'hosted', web_max_uses: 50 },
      { CODEY_WEB_PROVIDER: 'hosted' },
    );
    expect(settings).toMatchObject({ web_provider: 'hosted', web_fetch: 'hosted', web_max_uses: 50 });
    expect(notices).toEqual([]);
  });

  it('every setting says what a project file may do with it', () => {
    const table = Object.fromEntries(SETTING_KEYS.map((k) => [k, SETTING_META[k].project.may]));
    expect(table).toEqual({
      model: 'set',
      model_aliases: 'set',
      list_budget: 'set',
      base_url: 'never',
      api_key: 'never',
      auth_header: 'never',
      max_tokens: 'set',
      effort: 'set',
      thinking: 'set',
      max_turns: 'set',
      retry_base_ms: 'set',
      stream_retries: 'set',
      stream_retry_base_ms: 'set',
      allow: 'trusted',
      deny: 'set',
      ask: 'set',
      add_dirs: 'trusted',
      append_system_prompt: 'never',
      permission_mode: 'narrow',
      web_provider: 'narrow',
      web_command: 'never',
      web_fetch: 'narrow',
      web_search_version: 'never',
      web_max_uses: 'narrow',
      web_allowed_domains: 'narrow',
      web_blocked_domains: 'set',
      theme: 'set',
      context_window: 'set',
      compact_at: 'set',
      skills: 'narrow',
      agents: 'narrow',
      max_agent_depth: 'narrow',
      max_parallel_agents: 'set',
      agent_max_turns: 'set',
      notify: 'set',
      sandbox: 'narrow',
      sandbox_auto_allow: 'narrow',
      hooks: 'trusted',
      mcp_servers: 'trusted',
      mcp_config: 'never',
      mcp_trust: 'never',
      mcp_timeout_ms: 'set',
    });
  });
});

describe('environment and flags', () => {
  it('honours ANTHROPIC_MODEL, below CODEY_MODEL', async () => {
    const a = await resolveWith(undefined, { model: 'user-model' }, { ANTHROPIC_MODEL: 'anthropic-model' });
    expect(a.settings.model).toBe('anthropic-model');
    expect(a.settings.sources.model).toBe('env');
    const b = await resolveWith(undefined, undefined, {
      ANTHROPIC_MODEL: 'anthropic-model',
      CODEY_MODEL: 'codey-model',
    });
    expect(b.settings.model).toBe('codey-model');
  });

  it('CODEY_ALLOW and --allow add to the user file’s rules', async () => {
    const { settings } = await resolveWith(
      undefined,
      { allow: ['bash(npm test)'] },
      { CODEY_ALLOW: 'edit_file, bash(git diff:*)' },
      { allow: ['glob'] },
    );
    expect(settings.allow).toEqual(['bash(npm test)', 'edit_file, bash(git diff:*)', 'glob']);
    expect(settings.sources.allow).toBe('flag');
  });

  it('a bad flag value is a FlagError naming the flag and the reason, never "ignored"', async () => {
    const err = await resolveWith(
      undefined,
      { model: 'user-model' },
      {},
      { base_url: 'not a url', model: '' },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FlagError);
    expect((err as FlagError).problems).toEqual([
      '--model "" is not valid: expected a model id, got an empty string',
      '--base-url "not a url" is not valid: expected an http:// or https:// URL',
    ]);
  });
});

describe('the user file', () => {
  it('a JSON array is valid JSON, just not an object of settings: the error says so', async () => {
    await writeFile(userFile, '[]');
    const err = await resolveSettings({ env: {}, cwd: project, userFile }).catch((e: Error) => e);
    expect((err as Error).message).toBe(
      `${userFile} holds an array, not an object of settings (write it as { "key": value, … }); fix the file or remove it, then run codey again`,
    );
  });
});

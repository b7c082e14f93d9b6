import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Policy, evaluate, parseRule, readRule, ruleFor, splitRules } from '../../src/approval/policy';
import type { ApprovalRequest } from '../../src/approval/types';
import { spawnAgentTool } from '../../src/tools/spawn-agent';

const ws = mkdtempSync(join(tmpdir(), 'codey-rules-'));
const home = mkdtempSync(join(tmpdir(), 'codey-home-'));
afterAll(() => {
  for (const d of [ws, home]) rmSync(d, { recursive: true, force: true });
});
const place = { cwd: ws, home };

const call = (tool: string, detail: string, read = false): ApprovalRequest => ({
  tool,
  kind: read ? 'read' : 'execute',
  summary: detail,
  detail,
  rememberable: true,
  cwd: ws,
});
const bash = (cmd: string) => call('bash', cmd);
const read = (p: string) => call('read_file', p, true);
const verdict = (req: ApprovalRequest, lists: { allow?: string[]; deny?: string[]; ask?: string[] }) =>
  new Policy(lists.allow, lists.deny, { ask: lists.ask, place }).evaluate(req).action;

describe("Claude Code's tool names", () => {
  it.each([
    ['Bash', 'bash'],
    ['Read', 'read_file'],
    ['Write', 'write_file'],
    ['Grep', 'grep'],
    ['Glob', 'glob'],
    ['WebFetch', 'web_fetch'],
    ['WebSearch', 'web_search'],
    ['Task', 'spawn_agent'],
    ['Agent', 'spawn_agent'],
    ['Skill', 'skill'],
    ['read_file', 'read_file'],
  ])('%s names %s', (name, tool) => {
    expect(parseRule(name)?.tools).toContain(tool);
  });

  it('Edit covers every tool that changes a file', () => {
    expect(verdict(call('edit_file', 'a.ts'), { allow: ['Edit'] })).toBe('allow');
    expect(verdict(call('write_file', 'a.ts'), { allow: ['Edit'] })).toBe('allow');
    expect(verdict(bash('ls'), { allow: ['Edit'] })).toBe('ask');
  });

  it('Skill(name) allows that skill only', () => {
    expect(verdict(call('skill', 'review'), { deny: ['Skill(review)'] })).toBe('deny');
    expect(verdict(call('skill', 'other'), { deny: ['Skill(review)'] })).toBe('ask');
  });
});

describe('command patterns', () => {
  const cases: [string, string, 'allow' | 'ask'][] = [
    ['Bash(git status:*)', 'git status', 'allow'],
    ['Bash(git status:*)', 'git status --short', 'allow'],
    ['Bash(git diff *)', 'git diff HEAD~1', 'allow'],
    ['Bash(git diff *)', 'git diff', 'allow'],
    ['Bash(git diff *)', 'git diffuse', 'ask'],
    ['Bash(git diff *)', 'git diff; rm -rf ~', 'ask'],
    ['Bash(git diff *)', 'git diff $(curl x)', 'ask'],
    ['Bash(ls *)', 'lsof', 'ask'],
    ['Bash(ls*)', 'lsof', 'allow'],
    ['Bash(* --version)', 'node --version', 'allow'],
    ['Bash(* --version)', 'rm -rf ~ && node --version', 'ask'],
    ['Bash(npm run * --silent)', 'npm run build --silent', 'allow'],
    ['Bash(npm run * --silent)', 'npm run build', 'ask'],
    ['Bash(echo \\*)', 'echo *', 'allow'],
    ['Bash(echo \\*)', 'echo hi', 'ask'],
  ];
  it.each(cases)('allow %s: %j is %s', (rule, cmd, want) => {
    expect(verdict(bash(cmd), { allow: [rule] })).toBe(want);
  });

  it('a wildcard deny rule refuses the command anywhere in a line', () => {
    for (const cmd of ['curl -s x', 'ls && curl x | sh', 'sudo curl x', '/usr/bin/curl x'])
      expect(evaluate(bash(cmd), [parseRule('Bash')!], [parseRule('Bash(curl *)')!], [], place)).toEqual({
        action: 'deny',
        rule: 'Bash(curl *)',
      });
    expect(verdict(bash('curly'), { allow: ['Bash'], deny: ['Bash(curl *)'] })).toBe('allow');
  });
});

describe('path rules', () => {
  mkdirSync(join(ws, 'secrets/deep'), { recursive: true });
  mkdirSync(join(ws, 'src/nested'), { recursive: true });
  writeFileSync(join(ws, '.env'), 'KEY=1');
  writeFileSync(join(ws, 'src/nested/.env'), 'KEY=2');
  writeFileSync(join(ws, 'secrets/deep/k.txt'), 'k');
  writeFileSync(join(ws, 'src/nested/key.pem'), 'k');
  symlinkSync(join(ws, '.env'), join(ws, 'src/harmless.txt'));
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh/id'), 'k');

  const cases: [string, string, 'deny' | 'allow'][] = [
    ['Read(./.env)', '.env', 'deny'],
    ['Read(./.env)', 'src/nested/.env', 'allow'],
    ['Read(.env)', 'src/nested/.env', 'deny'],
    ['Read(./.env)', 'src/harmless.txt', 'deny'],
    ['Read(./.ENV)', '.env', 'deny'],
    ['Read(secrets/**)', 'secrets/deep/k.txt', 'deny'],
    ['Read(secrets/**)', 'src/secrets.ts', 'allow'],
    ['Read(secrets)', 'secrets/deep/k.txt', 'deny'],
    ['Read(**/*.pem)', 'src/nested/key.pem', 'deny'],
    ['Read(*.pem)', 'src/nested/key.pem', 'deny'],
    ['Read(/src/**)', 'src/nested/key.pem', 'deny'],
    ['Read(~/.ssh/**)', join(home, '.ssh/id'), 'deny'],
    ['Read(//etc/hosts)', '/etc/hosts', 'deny'],
    ['Read(//etc/hosts)', 'etc/hosts', 'allow'],
    [`Read(/${ws}/.env)`, '.env', 'deny'],
    ['read_file(secrets/**)', 'secrets/deep/k.txt', 'deny'],
    ['read_file(src/a.ts)', 'src/a.ts', 'deny'],
  ];
  it.each(cases)('deny %s: read %j is %s', (rule, path, want) => {
    expect(verdict(read(path), { deny: [rule] })).toBe(want);
  });

  it('an allow path rule holds on the real path, not the name a link gives', () => {
    expect(verdict(call('edit_file', 'src/a.ts'), { allow: ['Edit(src/**)'] })).toBe('allow');
    expect(verdict(call('edit_file', 'src/harmless.txt'), { allow: ['Edit(src/**)'] })).toBe('ask');
    expect(verdict(call('edit_file', 'lib/a.ts'), { allow: ['Edit(src/**)'] })).toBe('ask');
  });

  it('"always for this file" remembers that file only, not the name in every folder', () => {
    const req = call('write_file', 'a.ts');
    const rule = ruleFor(req, { kind: 'allow_detail' })!;
    expect(rule).toBe('write_file(./a.ts)');
    expect(verdict(call('write_file', 'a.ts'), { allow: [rule] })).toBe('allow');
    expect(verdict(call('write_file', 'sub/a.ts'), { allow: [rule] })).toBe('ask');
  });

  it('a protected path is allowed by a rule naming exactly it, not by a glob', () => {
    const req = { ...call('write_file', 'package.json'), protected: true };
    expect(verdict(req, { allow: ['Write(*.json)'] })).toBe('ask');
    expect(verdict(req, { allow: ['Write(./package.json)'] })).toBe('allow');
  });

  it('Policy.keepsOut says which files a Read deny rule hides from searches', () => {
    const p = new Policy([], ['Read(./.env)', 'Bash(rm:*)'], { place });
    expect(p.keepsOut(join(ws, '.env'))).toBe(true);
    expect(p.keepsOut(join(ws, 'src/harmless.txt'))).toBe(true);
    expect(p.keepsOut(join(ws, 'src/nested/key.pem'))).toBe(false);
  });
});

describe('ask rules', () => {
  it('ask even where an allow rule or a read-only tool would not', () => {
    expect(verdict(bash('git push'), { allow: ['Bash'], ask: ['Bash(git push:*)'] })).toBe('ask');
    expect(verdict(read('secrets/deep/k.txt'), { ask: ['Read(secrets/**)'] })).toBe('ask');
    expect(verdict(bash('git push'), { ask: ['Bash(git push:*)'], deny: ['Bash(git:*)'] })).toBe('deny');
    expect(new Policy([], [], { ask: ['Bash(git push *)'], place }).evaluate(bash('git push'))).toEqual({
      action: 'ask',
      rule: 'Bash(git push *)',
    });
  });
});

describe('rules that can match nothing are reported', () => {
  it.each([
    ['Read(!secrets)', 'negation'],
    ['Read(../outside/x)', '".."'],
    ['Bash(domain:example.com)', 'only web_fetch'],
  ])('%s', (text, why) => {
    const r = readRule(text);
    expect('problem' in r && r.problem).toContain('can match nothing');
    expect('problem' in r && r.problem).toContain(why);
  });
});

describe("every form of Claude Code's settings either matches or is reported", () => {
  const skill = (name: string) => call('skill', name, true);
  const search = (q: string) => call('web_search', q);

  it.each([
    ['Grep(src/**)', 'grep calls are decided as a whole'],
    ['Glob(*.ts)', 'glob calls are decided as a whole'],
    ['mcp__github__get_issue(owner:me)', 'an MCP tool is allowed or refused as a whole'],
    ['WebFetch(example.com)', 'write WebFetch(domain:example.com)'],
    ['WebFetch(url:https://example.com/a)', 'codey reads no "url:" parameter here'],
    ['Read(path:src/**)', 'codey reads no "path:" parameter here'],
    ['WebSearch(query:rust)', 'codey reads no "query:" parameter here'],
    ['Task(subagent_type:Explore)', 'codey reads no "subagent_type:" parameter here'],
  ])('%s is a problem, not a rule that matches nothing', (text, why) => {
    const r = readRule(text);
    expect('problem' in r && r.problem).toMatch(/^the rule ".+" can match nothing: .+; ignored$/);
    expect('problem' in r && r.problem).toContain(why);
  });

  it('Skill(name), Skill(name:*), Skill(review *) and WebSearch(words) match what they name', () => {
    expect(verdict(skill('review'), { deny: ['Skill(review)'] })).toBe('deny');
    expect(verdict(skill('review'), { deny: ['Skill(review:*)'] })).toBe('deny');
    expect(verdict(skill('review'), { deny: ['Skill(review *)'] })).toBe('deny');
    expect(verdict(skill('reviewer'), { deny: ['Skill(review *)'] })).toBe('allow');
    expect(verdict(skill('pdf-fill'), { deny: ['Skill(pdf-*)'] })).toBe('deny');
    expect(verdict(search('rust async'), { allow: ['WebSearch(rust *)'] })).toBe('allow');
    expect(verdict(search('go async'), { allow: ['WebSearch(rust *)'] })).toBe('ask');
  });

  it('the forms that keep working: whole tools, *, URLs, domains, paths, prefixes', () => {
    for (const text of [
      'Bash',
      'Bash(*)',
      'Read(*)',
      'Task(*)',
      'Bash(npm run test:*)',
      'Bash(curl http://site.com/:*)',
      'WebFetch(https://example.com/page)',
      'WebFetch(domain:docs.python.org)',
      'Edit(//Users/alice/src/**)',
      'mcp__github',
      'mcp__github__*',
      'mcp__github__get_issue',
    ])
      expect(readRule(text), text).toHaveProperty('rule');
  });
});

describe('rule lists', () => {
  it('split at commas and blanks outside parentheses (--allowedTools "Bash(git diff *) Edit")', () => {
    expect(splitRules('Bash(git diff *) Edit,Read(./a b.txt)  WebSearch')).toEqual([
      'Bash(git diff *)',
      'Edit',
      'Read(./a b.txt)',
      'WebSearch',
    ]);
  });
});

describe('Task(agent-type) rules', () => {
  const spawn = (task: string, agent?: string): ApprovalRequest => {
    const tool = spawnAgentTool(
      async () => Promise.reject(new Error('unused')),
      [{ name: 'Explore', description: 'Looks around.' }],
    );
    return {
      tool: 'spawn_agent',
      kind: 'agent',
      ...tool.describe({ task, ...(agent ? { agent } : {}) } as never),
      cwd: ws,
    };
  };

  it('match the subagent type a spawn_agent call runs, not the words of its task', () => {
    expect(readRule('Task(Explore)')).toMatchObject({ rule: { match: { kind: 'agent', value: 'Explore' } } });
    expect(verdict(spawn('look around', 'Explore'), { deny: ['Task(Explore)'] })).toBe('deny');
    expect(verdict(spawn('Explore', undefined), { deny: ['Task(Explore)'] })).toBe('allow');
    expect(verdict(spawn('look around', 'Explore'), { deny: ['Agent(Explore)'] })).toBe('deny');
    expect(verdict(spawn('look around', 'Explore'), { deny: ['Task(reviewer)'] })).toBe('allow');
  });

  it('name a subagent without a definition general-purpose, as Claude Code does', () => {
    expect(verdict(spawn('look around'), { deny: ['Task(general-purpose)'] })).toBe('deny');
    expect(verdict(spawn('look around', 'Explore'), { deny: ['Task(general-purpose)'] })).toBe('allow');
    expect(verdict(spawn('look around'), { deny: ['Task'] })).toBe('deny');
  });
});

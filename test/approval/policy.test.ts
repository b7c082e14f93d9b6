import { describe, expect, it } from 'vitest';
import {
  Policy,
  describe as describeCall,
  evaluate,
  parseRule,
  readRule,
  ruleFor,
  splitRules,
  type Rule,
} from '../../src/approval/policy';
import type { ApprovalRequest, Decision } from '../../src/approval/types';
import type { ToolKind } from '../../src/util/shapes';

const bash = (cmd: string): ApprovalRequest => ({
  tool: 'bash',
  kind: 'execute',
  summary: `Run: ${cmd}`,
  detail: cmd,
  rememberable: true,
});
const fetchReq = (url: string): ApprovalRequest => ({
  tool: 'web_fetch',
  kind: 'fetch',
  summary: `Fetch ${url}`,
  detail: url,
  rememberable: true,
  domain: new URL(url).hostname,
});
const rules = (...r: string[]): Rule[] => r.map((x) => parseRule(x)!);

describe('evaluate', () => {
  const cases: [string, ApprovalRequest, string[], string][] = [
    [
      'read-only tools never ask',
      { tool: 'read_file', kind: 'read', summary: '', detail: 'a', rememberable: true },
      [],
      'allow',
    ],
    ['no rule: ask', bash('npm test'), [], 'ask'],
    ['whole tool', bash('rm -rf build'), ['bash'], 'allow'],
    ['display name', bash('ls'), ['Bash'], 'allow'],
    ['exact command', bash('npm test'), ['bash(npm test)'], 'allow'],
    ['exact command, other args', bash('npm test -- --watch'), ['bash(npm test)'], 'ask'],
    ['prefix', bash('git diff HEAD~1'), ['bash(git diff:*)'], 'allow'],
    ['prefix alone', bash('git diff'), ['bash(git diff:*)'], 'allow'],
    ['prefix is a word boundary', bash('git diffuse'), ['bash(git diff:*)'], 'ask'],
    ['prefix refuses chained commands', bash('git diff; rm -rf ~'), ['bash(git diff:*)'], 'ask'],
    ['prefix refuses &&', bash('git diff && curl x | sh'), ['bash(git diff:*)'], 'ask'],
    ['prefix refuses $()', bash('git diff $(rm -rf ~)'), ['bash(git diff:*)'], 'ask'],
    ['other tool', bash('ls'), ['edit_file'], 'ask'],
    ['domain', fetchReq('https://docs.python.org/3/'), ['web_fetch(domain:docs.python.org)'], 'allow'],
    ['subdomain', fetchReq('https://a.docs.python.org/'), ['WebFetch(domain:docs.python.org)'], 'allow'],
    [
      'lookalike domain',
      fetchReq('https://evildocs.python.org.evil.com/'),
      ['web_fetch(domain:docs.python.org)'],
      'ask',
    ],
    ['exact URL', fetchReq('https://x.dev/a'), ['web_fetch(https://x.dev/a)'], 'allow'],
  ];
  it.each(cases)('%s', (_name, req, allow, want) => {
    expect(evaluate(req, rules(...allow)).action).toBe(want);
  });

  it('deny rules win over allow rules and are named', () => {
    const v = evaluate(bash('rm -rf /'), rules('bash'), rules('bash(rm -rf /)'));
    expect(v).toEqual({ action: 'deny', rule: 'bash(rm -rf /)' });
  });

  it('deny rules refuse read-only calls too; other reads still run without asking', () => {
    const read = (detail: string): ApprovalRequest => ({
      tool: 'read_file',
      kind: 'read',
      summary: `Read ${detail}`,
      detail,
      rememberable: true,
    });
    expect(evaluate(read('.env'), [], rules('read_file(.env)'))).toEqual({
      action: 'deny',
      rule: 'read_file(.env)',
    });
    expect(evaluate(read('src/a.ts'), [], rules('read_file(.env)'))).toEqual({ action: 'allow' });
  });
});

describe('rules', () => {
  it('splits comma lists but not commas inside parentheses', () => {
    expect(splitRules('bash(npm test),edit_file, bash(echo a,b)')).toEqual([
      'bash(npm test)',
      'edit_file',
      'bash(echo a,b)',
    ]);
  });
  it('rejects malformed rules', () => {
    expect(parseRule('bash(')).toBeUndefined();
    expect(parseRule('')).toBeUndefined();
  });

  const decisions: [Decision, ApprovalRequest, string | undefined][] = [
    [{ kind: 'allow_once' }, bash('ls'), undefined],
    [{ kind: 'allow_tool' }, bash('ls'), 'bash'],
    [{ kind: 'allow_detail' }, bash('npm test'), 'bash(npm test)'],
    [{ kind: 'allow_detail' }, { ...bash('q'), tool: 'web_search', rememberable: false }, undefined],
    [{ kind: 'allow_domain' }, fetchReq('https://docs.python.org/3/'), 'web_fetch(domain:docs.python.org)'],
    [{ kind: 'deny' }, bash('ls'), undefined],
    [{ kind: 'deny_with_message', message: 'use make' }, bash('ls'), undefined],
  ];
  it.each(decisions)('%j remembers the right rule', (d, req, want) => {
    expect(ruleFor(req, d)).toBe(want);
  });

  it('a session remembers "always" answers and applies them to later calls', () => {
    const p = new Policy();
    expect(p.evaluate(bash('npm test')).action).toBe('ask');
    p.remember(bash('npm test'), { kind: 'allow_detail' });
    expect(p.evaluate(bash('npm test')).action).toBe('allow');
    expect(p.evaluate(bash('npm run build')).action).toBe('ask');
    // Two sessions do not share answers.
    expect(new Policy().evaluate(bash('npm test')).action).toBe('ask');
  });
});

describe('deny rules fail closed', () => {
  // Each of these ran `rm` past `deny: bash(rm:*)` before deny rules looked at every simple command.
  const bypasses = [
    'rm -f x',
    'rm -f x && echo',
    'echo; rm -f x',
    ' rm -f x',
    '/bin/rm -f x',
    'command rm -f x',
    '\\rm -f x',
    'rm\t-f x',
    'sudo -u root rm -f x',
    'FOO=1 rm -f x',
    'echo $(rm -f x)',
    'echo `rm -f x`',
    'env -i nice -n 5 rm x',
    '"rm" x',
    'if true; then rm -f F; fi',
    'true && if :; then rm -f F; fi',
    'for f in F; do rm -f $f; done',
    'while false; do :; done; until true; do rm x; done',
    '! rm -f F',
    'find . -name F -exec rm {} \\;',
    'find . -execdir rm {} +',
  ];
  it.each(bypasses)('deny bash(rm:*) refuses %j', (cmd) => {
    expect(evaluate(bash(cmd), rules('bash'), rules('bash(rm:*)'))).toEqual({
      action: 'deny',
      rule: 'bash(rm:*)',
    });
  });

  it('does not refuse what merely contains the word', () => {
    expect(evaluate(bash('echo rm'), rules('bash'), rules('bash(rm:*)')).action).toBe('allow');
    expect(evaluate(bash('git rm-cached'), rules('bash'), rules('bash(rm:*)')).action).toBe('allow');
  });

  it('an exact deny rule refuses the command inside a chain too', () => {
    expect(
      evaluate(bash('ls && git push --force'), rules('bash'), rules('bash(git push --force)')).action,
    ).toBe('deny');
  });
});

describe('protected paths', () => {
  const write = (path: string, prot: boolean): ApprovalRequest => ({
    tool: 'write_file',
    kind: 'edit',
    summary: `Write ${path}`,
    detail: path,
    rememberable: true,
    protected: prot,
  });
  it('a whole-tool rule does not allow writing a protected path; an exact rule does', () => {
    expect(evaluate(write('.git/hooks/pre-commit', true), rules('write_file')).action).toBe('ask');
    expect(evaluate(write('.codeyrc.json', true), rules('write_file')).action).toBe('ask');
    expect(evaluate(write('.codeyrc.json', true), rules('write_file(.codeyrc.json)')).action).toBe('allow');
    expect(evaluate(write('src/a.ts', false), rules('write_file')).action).toBe('allow');
  });
});

describe('malformed rules', () => {
  it.each(['bash(', 'web_fetch(domain:)', 'bash(:*)', '', '(x)'])('%j does not parse', (r) => {
    expect(parseRule(r)).toBeUndefined();
  });
});

describe('domain rules', () => {
  it.each([
    ['web_fetch(domain:python.org)', 'python.org'],
    ['web_fetch(domain:*.python.org)', 'python.org'],
    ['web_fetch(domain: Docs.Python.org )', 'docs.python.org'],
    ['web_fetch(domain:python.org.)', 'python.org'],
    ['web_fetch(domain:bücher.de)', 'xn--bcher-kva.de'],
    ['web_fetch(domain:[2606:4700::1])', '2606:4700::1'],
    ['web_fetch(domain:2606:4700::1)', '2606:4700::1'],
  ])('%s is accepted as %s', (text, value) => {
    expect(parseRule(text)?.match).toEqual({ kind: 'domain', value });
  });

  it('*.python.org covers the domain itself and every subdomain, as the bare domain does', () => {
    for (const rule of ['web_fetch(domain:*.python.org)', 'web_fetch(domain:python.org)']) {
      expect(evaluate(fetchReq('https://python.org/'), rules(rule)).action).toBe('allow');
      expect(evaluate(fetchReq('https://docs.python.org/3/'), rules(rule)).action).toBe('allow');
      expect(evaluate(fetchReq('https://a.b.python.org/'), rules(rule)).action).toBe('allow');
      expect(evaluate(fetchReq('https://notpython.org/'), rules(rule)).action).toBe('ask');
    }
  });

  it('a deny written *.evil.example blocks the domain, its subdomains and the trailing-dot form', () => {
    const deny = rules('web_fetch(domain:*.evil.example)');
    for (const url of ['https://evil.example/', 'https://a.evil.example/x', 'https://evil.example./']) {
      expect(evaluate(fetchReq(url), rules('web_fetch'), deny)).toEqual({
        action: 'deny',
        rule: 'web_fetch(domain:*.evil.example)',
      });
    }
  });

  it.each([
    'web_fetch(domain:.python.org)',
    'web_fetch(domain:https://python.org)',
    'web_fetch(domain:https://python.org/3/)',
    'web_fetch(domain:*)',
    'web_fetch(domain:*python.org)',
    'web_fetch(domain:docs.*.org)',
    'web_fetch(domain:python.org/3)',
    'web_fetch(domain:python.org:443)',
    'web_fetch(domain:me@python.org)',
    'web_fetch(domain:a..b)',
    'web_fetch(*.python.org)',
    'web_fetch(https://python.org/*)',
  ])('%s is rejected with a notice naming the accepted forms', (text) => {
    expect(parseRule(text)).toBeUndefined();
    const read = readRule(text);
    expect('problem' in read && read.problem).toContain(
      'domain:example.com (that host and all its subdomains; domain:*.example.com means the same)',
    );
    expect('problem' in read && read.problem).toContain(`"${text}"`);
  });
});

describe('a request carries the kind, which alone decides what never asks', () => {
  const tool = (kind: ToolKind) => ({
    name: 'probe',
    kind,
    describe: () => ({ summary: 's', detail: 'd', rememberable: true }),
  });

  it('never asks about read or agent, and asks about every other kind', () => {
    const verdicts = (['read', 'edit', 'execute', 'fetch', 'agent'] as const).map((k) => {
      const req = describeCall(tool(k), undefined as never);
      return [k, req.kind, evaluate(req, []).action];
    });
    expect(verdicts).toEqual([
      ['read', 'read', 'allow'],
      ['edit', 'edit', 'ask'],
      ['execute', 'execute', 'ask'],
      ['fetch', 'fetch', 'ask'],
      ['agent', 'agent', 'allow'],
    ]);
  });
});

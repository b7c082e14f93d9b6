import { describe, expect, it } from 'vitest';
import { QuestionQueue } from '../../src/agent/approval-gate';
import { decider } from '../../src/agent/decide';
import { Policy, evaluate, parseRule, readRule, ruleFor, type Rule } from '../../src/approval/policy';
import type { ApprovalRequest, Decision } from '../../src/approval/types';
import type { PermissionMode } from '../../src/util/shapes';

/** A sandboxed bash request; `network`: the model asked for the network. */
const cmd = (command: string, network = false): ApprovalRequest => ({
  tool: 'bash',
  kind: 'execute',
  summary: `Run: ${command}`,
  detail: command,
  rememberable: true,
  sandboxed: true,
  ...(network && { network: true }),
});
const rules = (...r: string[]): Rule[] => r.map((x) => parseRule(x)!);

describe('net: rules', () => {
  it('read as the rule without net:, keeping the network', () => {
    expect(parseRule('bash(net:npm install)')).toMatchObject({
      tool: 'bash',
      match: { kind: 'exact', value: 'npm install' },
      network: true,
      source: 'bash(net:npm install)',
    });
    expect(parseRule('Bash(net:npm:*)')).toMatchObject({
      match: { kind: 'prefix', value: 'npm' },
      network: true,
    });
    expect(parseRule('bash(net:git fetch *)')?.match?.kind).toBe('wildcard');
    const whole = parseRule('bash(net:*)');
    expect(whole?.match).toBeUndefined();
    expect(whole?.network).toBe(true);
    expect(parseRule('bash(npm install)')?.network).toBeUndefined();
  });

  it('are for bash only, and a bad one says so in its own words', () => {
    expect(readRule('web_fetch(net:example.com)')).toEqual({
      problem:
        'the rule "web_fetch(net:example.com)" can match nothing: only bash commands take net: (the network in the sandbox); ignored',
    });
    expect(readRule('bash(net::*)')).toMatchObject({
      problem: expect.stringContaining('"bash(net::*)" does not parse'),
    });
  });
});

describe('the sandbox rung and the network', () => {
  const cases: [
    string,
    ApprovalRequest,
    { allow?: string[]; deny?: string[]; ask?: string[] },
    boolean,
    string,
  ][] = [
    ['auto-allow runs a sandboxed command without network', cmd('make'), {}, true, 'allow'],
    ['without auto-allow it asks', cmd('make'), {}, false, 'ask'],
    ['a command that asks for the network still asks', cmd('npm install', true), {}, true, 'ask'],
    ['a deny rule still refuses', cmd('rm -rf build'), { deny: ['bash(rm:*)'] }, true, 'deny'],
    ['an ask rule still asks', cmd('git push'), { ask: ['bash(git push:*)'] }, true, 'ask'],
    ['an unsandboxed command is not auto-allowed', { ...cmd('make'), sandboxed: false }, {}, true, 'ask'],
    [
      'a plain rule does not give the network',
      cmd('npm install', true),
      { allow: ['bash(npm install)'] },
      false,
      'ask',
    ],
    ['a net: rule does', cmd('npm install', true), { allow: ['bash(net:npm install)'] }, false, 'allow'],
    [
      'a net: rule allows the command without network too',
      cmd('npm ci'),
      { allow: ['bash(net:npm:*)'] },
      false,
      'allow',
    ],
  ];
  it.each(cases)('%s', (_name, req, r, autoAllow, want) => {
    const v = evaluate(
      req,
      rules(...(r.allow ?? [])),
      rules(...(r.deny ?? [])),
      rules(...(r.ask ?? [])),
      undefined,
      undefined,
      autoAllow,
    );
    expect(v.action).toBe(want);
  });

  it('a net: rule grants the network; auto-allow and plain rules do not', () => {
    expect(evaluate(cmd('npm ci'), rules('bash(net:npm:*)'))).toEqual({
      action: 'allow',
      rule: 'bash(net:npm:*)',
      network: true,
    });
    expect(evaluate(cmd('make'), [], [], [], undefined, undefined, true)).toEqual({ action: 'allow' });
    expect(evaluate(cmd('make'), rules('bash(make)'))).toEqual({ action: 'allow', rule: 'bash(make)' });
  });

  it('plan mode refuses before auto-allow lets a command run', () => {
    const mode: PermissionMode = 'plan';
    expect(evaluate(cmd('make'), [], [], [], undefined, mode, true).action).toBe('deny');
  });

  it('an "always" answer to a request for the network keeps the network', () => {
    expect(ruleFor(cmd('npm install', true), { kind: 'allow_detail' })).toBe('bash(net:npm install)');
    expect(ruleFor(cmd('npm install', true), { kind: 'allow_tool' })).toBe('bash(net:*)');
    expect(ruleFor(cmd('npm install'), { kind: 'allow_detail' })).toBe('bash(npm install)');
    expect(ruleFor(cmd('npm install'), { kind: 'allow_network' })).toBeUndefined();
  });
});

describe('deciding a sandboxed command', () => {
  const decide = (policy: Policy, answer?: Decision) =>
    decider(
      {
        policy,
        questions: new QuestionQueue(),
        ...(answer && { requestApproval: () => Promise.resolve(answer) }),
        emit: () => {},
        denials: [],
        scrub: (t) => t,
      },
      { id: 'toolu_1', name: 'bash', input: {} },
      new AbortController().signal,
    );

  it('gives the network for "yes, with network", for any yes to a request for it, and not otherwise', async () => {
    const p = new Policy();
    expect(await decide(p, { kind: 'allow_network' })(cmd('npm install'))).toEqual({
      allowed: true,
      network: true,
    });
    expect(await decide(p, { kind: 'allow_once' })(cmd('npm install', true))).toEqual({
      allowed: true,
      network: true,
    });
    expect(await decide(p, { kind: 'allow_once' })(cmd('npm install'))).toEqual({ allowed: true });
    expect(await decide(new Policy(['bash(net:npm:*)']))(cmd('npm ci'))).toEqual({
      allowed: true,
      network: true,
    });
    expect(await decide(new Policy([], [], { sandboxAutoAllow: true }))(cmd('make'))).toEqual({
      allowed: true,
    });
  });

  it('remembers "always" for a request for the network as a net: rule', async () => {
    const p = new Policy();
    await decide(p, { kind: 'allow_detail' })(cmd('npm install', true));
    expect(p.rules()).toEqual(['bash(net:npm install)']);
    expect(await decide(p)(cmd('npm install', true))).toEqual({ allowed: true, network: true });
  });
});

import { describe, expect, it } from 'vitest';
import { modeNamed, nextMode } from '../../src/approval/modes';
import { Policy } from '../../src/approval/policy';
import type { ApprovalRequest } from '../../src/approval/types';
import type { PermissionMode, ToolKind } from '../../src/util/shapes';

const call = (
  tool: string,
  kind: ToolKind,
  detail: string,
  extra: Partial<ApprovalRequest> = {},
): ApprovalRequest => ({
  tool,
  kind,
  summary: `${tool} ${detail}`,
  detail,
  rememberable: true,
  ...extra,
});

const edit = (path: string) =>
  call('edit_file', 'edit', path, path.includes('package.json') ? { protected: true } : {});
const CALLS = {
  read: call('read_file', 'read', 'src/a.ts'),
  edit: edit('src/a.ts'),
  'write outside the workspace': call('write_file', 'edit', '/tmp/elsewhere/a.ts'),
  'write up and out': call('write_file', 'edit', '../sibling/a.ts'),
  'edit package.json': edit('package.json'),
  bash: call('bash', 'execute', 'npm test'),
  'an MCP tool': call('mcp__db__query', 'execute', '{"sql":"drop table x"}'),
  web_fetch: call('web_fetch', 'fetch', 'https://docs.example.dev/', { domain: 'docs.example.dev' }),
  spawn_agent: call('spawn_agent', 'agent', 'look around'),
} as const;
type CallName = keyof typeof CALLS;

/** What each mode does with each call with no rule in force, written out as the README says it. */
const TABLE: Record<PermissionMode, Record<CallName, 'allow' | 'ask' | 'deny'>> = {
  default: {
    read: 'allow',
    edit: 'ask',
    'write outside the workspace': 'ask',
    'write up and out': 'ask',
    'edit package.json': 'ask',
    bash: 'ask',
    'an MCP tool': 'ask',
    web_fetch: 'ask',
    spawn_agent: 'allow',
  },
  'accept-edits': {
    read: 'allow',
    edit: 'allow',
    'write outside the workspace': 'ask',
    'write up and out': 'ask',
    'edit package.json': 'ask',
    bash: 'ask',
    'an MCP tool': 'ask',
    web_fetch: 'ask',
    spawn_agent: 'allow',
  },
  plan: {
    read: 'allow',
    edit: 'deny',
    'write outside the workspace': 'deny',
    'write up and out': 'deny',
    'edit package.json': 'deny',
    bash: 'deny',
    'an MCP tool': 'deny',
    web_fetch: 'ask',
    spawn_agent: 'allow',
  },
  bypass: {
    read: 'allow',
    edit: 'allow',
    'write outside the workspace': 'allow',
    'write up and out': 'allow',
    'edit package.json': 'ask',
    bash: 'allow',
    'an MCP tool': 'allow',
    web_fetch: 'allow',
    spawn_agent: 'allow',
  },
};

const cases = Object.entries(TABLE).flatMap(([mode, row]) =>
  Object.entries(row).map(([name, want]) => [mode as PermissionMode, name as CallName, want] as const),
);

describe('each permission mode, each kind of call', () => {
  it.each(cases)('%s: %s → %s', (mode, name, want) => {
    const verdict = new Policy([], [], { mode }).evaluate(CALLS[name]);
    expect(verdict.action).toBe(want);
    // A mode that decides names itself (the model's sentence and --verbose come from it).
    if (verdict.action !== 'ask' && name !== 'read' && name !== 'spawn_agent')
      expect(verdict.mode).toBe(mode === 'default' ? undefined : mode);
  });
});

describe('the mode among the rules', () => {
  const modes: PermissionMode[] = ['default', 'accept-edits', 'plan', 'bypass'];

  it('a deny rule refuses in every mode, bypass too', () => {
    for (const mode of modes) {
      expect(
        new Policy([], ['bash(rm:*)'], { mode }).evaluate(call('bash', 'execute', 'rm -rf build')),
      ).toEqual({
        action: 'deny',
        rule: 'bash(rm:*)',
      });
      expect(new Policy([], ['Edit(src/**)'], { mode }).evaluate(CALLS.edit).action).toBe('deny');
    }
  });

  it('plan refuses a change even when an allow or ask rule names it', () => {
    const policy = new Policy(['bash', 'edit_file'], [], { ask: ['bash(npm test)'], mode: 'plan' });
    expect(policy.evaluate(CALLS.bash)).toEqual({ action: 'deny', mode: 'plan' });
    expect(policy.evaluate(CALLS.edit)).toEqual({ action: 'deny', mode: 'plan' });
  });

  it('an ask rule still asks in accept-edits and bypass', () => {
    for (const mode of ['accept-edits', 'bypass'] as const) {
      const policy = new Policy([], [], { ask: ['Edit(src/**)', 'bash(npm test)'], mode });
      expect(policy.evaluate(CALLS.edit)).toEqual({ action: 'ask', rule: 'Edit(src/**)' });
      expect(policy.evaluate(CALLS.bash).action).toBe('ask');
    }
  });

  it('a protected path asks in accept-edits and bypass unless an exact rule names it', () => {
    for (const mode of ['accept-edits', 'bypass'] as const) {
      expect(new Policy(['edit_file'], [], { mode }).evaluate(CALLS['edit package.json']).action).toBe('ask');
      expect(
        new Policy(['edit_file(./package.json)'], [], { mode }).evaluate(CALLS['edit package.json']).action,
      ).toBe('allow');
    }
  });

  it('switching the mode decides the next request, in the same Policy', () => {
    const policy = new Policy();
    expect(policy.mode).toBe('default');
    expect(policy.evaluate(CALLS.edit).action).toBe('ask');
    policy.mode = 'plan';
    expect(policy.evaluate(CALLS.edit).action).toBe('deny');
    policy.mode = 'accept-edits';
    expect(policy.evaluate(CALLS.edit).action).toBe('allow');
  });
});

describe('mode names', () => {
  it("takes codey's names and Claude Code's", () => {
    expect(['default', 'accept-edits', 'plan', 'bypass'].map(modeNamed)).toEqual([
      'default',
      'accept-edits',
      'plan',
      'bypass',
    ]);
    expect(['acceptEdits', 'bypassPermissions'].map(modeNamed)).toEqual(['accept-edits', 'bypass']);
    expect(modeNamed('dontAsk')).toBeUndefined();
    expect(modeNamed('toString')).toBeUndefined();
  });

  it('Shift+Tab cycles default → accept-edits → plan → default; bypass goes to default', () => {
    expect(nextMode('default')).toBe('accept-edits');
    expect(nextMode('accept-edits')).toBe('plan');
    expect(nextMode('plan')).toBe('default');
    expect(nextMode('bypass')).toBe('default');
  });
});

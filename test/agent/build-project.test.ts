import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../src/agent/agent';
import { buildAgent, rebuild } from '../../src/agent/build';
import { Policy } from '../../src/approval/policy';
import { ScriptedLlm } from '../../src/llm/scripted';
import type { Skill } from '../../src/skills/skill';

const skill: Skill = {
  name: 'sheets',
  description: 'Spreadsheets: open, edit or chart .xlsx files.',
  metadata: {},
  allowedTools: [],
  dir: '/skills/sheets',
  file: '/skills/sheets/SKILL.md',
  body: '# Sheets',
  bodyLine: 5,
  scope: 'user',
  root: '/skills',
};
const project = {
  sources: { skills: [skill], skillReadRoots: ['/skills/sheets'] },
  instructions: '# Project instructions\n\n## /repo/AGENTS.md\n\nUse npm test.',
};

async function spec(over: Partial<AgentSpec> = {}): Promise<AgentSpec> {
  return {
    workspace: await realpath(await mkdtemp(join(tmpdir(), 'codey-build-'))),
    llm: new ScriptedLlm([]),
    toolSettings: { webProvider: 'none', webFetch: 'none', version: 'test' },
    env: {},
    policy: new Policy(),
    model: 'claude-test',
    thinking: 'off',
    limits: { maxTokens: 100, maxTurns: 5 },
    date: '2026-01-02',
    platform: 'linux',
    ...over,
  };
}

describe('buildAgent with the project context', () => {
  it('adds the skill tool and the instructions; another agent built from its spec has the same', async () => {
    const first = await buildAgent(await spec(project));
    expect(first.registry.list().map((t) => t.name)).toContain('skill');
    expect(first.registry.readRoots).toEqual(['/skills/sheets']);
    expect(first.system.endsWith(`\n\n${project.instructions}`)).toBe(true);
    const other = await realpath(await mkdtemp(join(tmpdir(), 'codey-build-')));
    const child = await rebuild(first, { workspace: other });
    expect(child.registry.get('skill')?.description).toBe(first.registry.get('skill')?.description);
    expect(child.system.endsWith(`\n\n${project.instructions}`)).toBe(true);
  });

  it('without skills or instructions, the tools and the prompt are those of a build without them', async () => {
    const s = await spec();
    const plain = await buildAgent(s);
    const empty = await buildAgent({
      ...s,
      sources: { skills: [], skillReadRoots: ['/x'] },
      instructions: '',
    });
    expect(JSON.stringify(empty.registry.definitions())).toBe(JSON.stringify(plain.registry.definitions()));
    expect(empty.system).toBe(plain.system);
    expect(empty.registry.readRoots).toEqual([]);
  });
});

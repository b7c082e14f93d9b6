import { describe, expect, it } from 'vitest';
import { matcherOf, toolNames } from '../../src/hooks/matcher';

const fires = (pattern: string | undefined, tool: string) => {
  const m = matcherOf(pattern);
  if ('problem' in m) throw new Error(m.problem);
  return m(toolNames(tool));
};

describe('a hook matcher', () => {
  it.each([
    [undefined, 'bash', true],
    ['', 'web_fetch', true],
    ['*', 'mcp__github__create_issue', true],
    ['bash', 'bash', true],
    ['Bash', 'bash', true],
    ['Bash', 'read_file', false],
    ['edit_file|write_file', 'write_file', true],
    ['Edit|Write', 'edit_file', true],
    ['Edit|Write', 'write_file', true],
    ['Edit|Write', 'read_file', false],
    ['MultiEdit', 'edit_file', true],
    ['Read', 'read_file', true],
    ['Glob', 'glob', true],
    ['Grep', 'grep', true],
    ['WebFetch', 'web_fetch', true],
    ['WebSearch', 'web_search', true],
    ['Task', 'spawn_agent', true],
    ['mcp__*', 'mcp__github__create_issue', true],
    ['mcp__.*', 'mcp__github__create_issue', true],
    ['mcp__github__.*', 'mcp__github__create_issue', true],
    ['mcp__github__.*', 'mcp__slack__post', false],
    ['mcp__*', 'bash', false],
    ['^Web', 'web_search', true],
    ['Bash', 'mcp__shell__Bash_run', false],
  ])('%j for %s: %s', (pattern, tool, expected) => {
    expect(fires(pattern, tool)).toBe(expected);
  });

  it('says why a pattern it cannot read is left out', () => {
    expect(matcherOf('mcp__(')).toEqual({ problem: expect.stringMatching(/not a regular expression/) });
  });

  it('is case-sensitive, as Claude Code reads it', () => {
    expect(fires('BASH', 'bash')).toBe(false);
  });
});

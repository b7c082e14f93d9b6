import { describe, expect, it } from 'vitest';
import { claudeCall, claudeResponse } from '../../src/hooks/claude-call';

describe("a call in a hook's payload", () => {
  it.each([
    ['bash', { command: 'ls', timeout_ms: 5000 }, 'Bash', { command: 'ls', timeout_ms: 5000, timeout: 5000 }],
    ['bash', { command: 'ls' }, 'Bash', { command: 'ls' }],
    ['read_file', { path: 'a.ts', offset: 3 }, 'Read', { path: 'a.ts', offset: 3, file_path: '/w/a.ts' }],
    [
      'write_file',
      { path: '/w/b.ts', content: 'x' },
      'Write',
      { path: '/w/b.ts', content: 'x', file_path: '/w/b.ts' },
    ],
    [
      'edit_file',
      { path: 'c.ts', old_string: 'a', new_string: 'b', replace_all: true },
      'Edit',
      { path: 'c.ts', old_string: 'a', new_string: 'b', replace_all: true, file_path: '/w/c.ts' },
    ],
    ['glob', { pattern: '**/*.ts', path: 'src' }, 'Glob', { pattern: '**/*.ts', path: 'src' }],
    ['grep', { pattern: 'x', ignore_case: true }, 'Grep', { pattern: 'x', ignore_case: true, '-i': true }],
    ['web_fetch', { url: 'https://a.example/' }, 'WebFetch', { url: 'https://a.example/' }],
    [
      'web_search',
      { query: 'zod', site: 'zod.dev' },
      'WebSearch',
      { query: 'zod', site: 'zod.dev', allowed_domains: ['zod.dev'] },
    ],
    [
      'spawn_agent',
      { task: 'find it', description: 'Find it' },
      'Task',
      { task: 'find it', description: 'Find it', prompt: 'find it', subagent_type: 'general-purpose' },
    ],
    ['skill', { name: 'pdf' }, 'Skill', { name: 'pdf', skill: 'pdf' }],
    ['mcp__github__create_issue', { title: 't' }, 'mcp__github__create_issue', { title: 't' }],
  ])("%s is Claude Code's %s with its fields beside codey's", (tool, input, name, expected) => {
    expect(claudeCall(tool, input, '/w')).toEqual({
      tool_name: name,
      tool_input: expected,
      codey_tool_name: tool,
    });
  });

  it('never overwrites a field the model wrote, and passes an input that is not an object as it is', () => {
    expect(claudeCall('read_file', { path: 'a', file_path: 'mine' }, '/w').tool_input).toEqual({
      path: 'a',
      file_path: 'mine',
    });
    expect(claudeCall('bash', 'ls', '/w').tool_input).toBe('ls');
  });
});

describe('a successful result in a PostToolUse payload', () => {
  it.each([
    ['bash', { command: 'ls' }, 'a\nb', { stdout: 'a\nb', stderr: '', interrupted: false, isImage: false }],
    ['read_file', { path: 'a.ts' }, '1\tx', { type: 'text', file: { filePath: '/w/a.ts', content: '1\tx' } }],
    [
      'write_file',
      { path: 'b.ts', content: 'x' },
      'Wrote',
      { filePath: '/w/b.ts', content: 'x', success: true },
    ],
    [
      'edit_file',
      { path: 'c.ts', old_string: 'a', new_string: 'b' },
      'Edited',
      { filePath: '/w/c.ts', oldString: 'a', newString: 'b', replaceAll: false, success: true },
    ],
    ['glob', { pattern: '*' }, 'a.ts\nb.ts\n', { filenames: ['a.ts', 'b.ts'], numFiles: 2 }],
    ['grep', { pattern: 'x' }, 'a.ts\n', { mode: 'files_with_matches', filenames: ['a.ts'], numFiles: 1 }],
    [
      'grep',
      { pattern: 'x', output_mode: 'content' },
      'a.ts:1:x',
      { mode: 'content', content: 'a.ts:1:x', numLines: 1 },
    ],
    ['web_fetch', { url: 'https://a.example/' }, 'page', { url: 'https://a.example/', result: 'page' }],
    ['web_search', { query: 'zod' }, 'r', { query: 'zod', results: ['r'] }],
    ['spawn_agent', { task: 't' }, 'done', { content: [{ type: 'text', text: 'done' }] }],
    ['mcp__github__create_issue', { title: 't' }, 'made', {}],
  ])("%s has Claude Code's fields beside codey's output", (tool, input, output, expected) => {
    expect(claudeResponse(tool, input, output, '/w')).toEqual({ ...expected, output, is_error: false });
  });
});

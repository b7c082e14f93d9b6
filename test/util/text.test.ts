import { describe, expect, it } from 'vitest';
import { displayName, firstLine, oneLine, splitLines } from '../../src/util/text';

describe('displayName', () => {
  it('displays wire names in PascalCase', () => {
    expect(displayName('web_fetch')).toBe('WebFetch');
    expect(displayName('bash')).toBe('Bash');
    expect(displayName('mcp__git__log')).toBe('McpGitLog');
  });
});

describe('the line helpers, one meaning each', () => {
  it('firstLine keeps the first line and marks what it left out', () => {
    expect(firstLine('a\nb')).toBe('a…');
    expect(firstLine('abcdef', 3)).toBe('abc…');
    expect(firstLine('abc')).toBe('abc');
  });

  it('oneLine puts the whole text on one line within max characters, the ellipsis included', () => {
    expect(oneLine('  npm\n  test\t--watch ')).toBe('npm test --watch');
    expect(oneLine('abcdef', 4)).toBe('abc…');
    expect(oneLine('abcd', 4)).toBe('abcd');
  });

  it('splitLines drops the CR of a CRLF and adds no line for a final newline', () => {
    expect(splitLines('a\r\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\n\nb')).toEqual(['a', '', 'b']);
    expect(splitLines('')).toEqual([]);
  });
});

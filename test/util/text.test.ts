import { describe, expect, it } from 'vitest';
import { displayName } from '../../src/util/text';

describe('displayName', () => {
  it('displays wire names in PascalCase', () => {
    expect(displayName('web_fetch')).toBe('WebFetch');
    expect(displayName('bash')).toBe('Bash');
    expect(displayName('mcp__git__log')).toBe('McpGitLog');
  });
});

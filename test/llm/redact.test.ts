import { describe, expect, it } from 'vitest';
import { redactor } from '../../src/llm/redact';

describe('redactor', () => {
  const key = 'sk-ant-mine-0123456789';
  it('replaces the given secrets and, by default, anything shaped like an Anthropic key', () => {
    expect(redactor([key])(`a ${key} b sk-ant-other-abcdefghij c`)).toBe('a [redacted] b [redacted] c');
  });
  it('for tool output, replaces only the exact secrets (key-shaped test data in a file stays)', () => {
    expect(redactor([key], { keyShapes: false })(`${key} sk-ant-fixture-abcdefghij`)).toBe(
      '[redacted] sk-ant-fixture-abcdefghij',
    );
  });
  it('ignores secrets shorter than 8 characters, which would mangle ordinary text', () => {
    expect(redactor(['abc', undefined])('abc abc')).toBe('abc abc');
  });
});

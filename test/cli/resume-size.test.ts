import { describe, expect, it } from 'vitest';
import { sizeOf } from '../../src/cli/resume';
import type { SessionSummary } from '../../src/session/records';

const summary = (messages: number, bytes: number): SessionSummary => ({
  version: 1,
  id: 'x',
  workspace: '/w',
  model: 'm',
  started_at: '2026-12-01T00:00:00.000Z',
  updated_at: '2026-12-01T00:00:00.000Z',
  first_prompt: '',
  title: '',
  messages,
  bytes,
});

describe('the size a resumed session line shows', () => {
  it('groups the KB in threes with commas, as en-US writes them', () => {
    expect(sizeOf(summary(2000, 1234 * 1024))).toBe('2000 messages, 1,234 KB');
    expect(sizeOf(summary(1, 12_345_678 * 1024))).toBe('1 message, 12,345,678 KB');
    expect(sizeOf(summary(3, 999 * 1024))).toBe('3 messages, 999 KB');
  });
});

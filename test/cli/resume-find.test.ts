import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findFor } from '../../src/cli/resume';
import { looksLikeSessionId } from '../../src/session/store';

let state: string;
beforeEach(async () => {
  state = await mkdtemp(join(tmpdir(), 'codey-find-'));
});
afterEach(() => rm(state, { recursive: true, force: true }));

describe('findFor with an ID that is no session', () => {
  it('interactive: a prompt taken for an ID says how to resume and ask', () => {
    const found = findFor({ kind: 'id', id: 'fix the bug' }, '/w', { XDG_STATE_HOME: state });
    expect(found).toEqual({
      ok: false,
      message:
        'no session "fix the bug" (-r takes a session ID, so it took that for one); to resume and ask, use ' +
        'codey -r ID "prompt" or codey -c "prompt"\nthere are no stored sessions for this workspace yet',
    });
  });

  it('a long prompt is shown on one line, cut', () => {
    const found = findFor({ kind: 'id', id: `fix\n${'x'.repeat(200)}` }, '/w', { XDG_STATE_HOME: state });
    expect(found.ok).toBe(false);
    if (!found.ok) expect(found.message).toMatch(/^no session "fix x{55}…" \(-r takes/);
  });

  it('session IDs are UUIDs or starts of one; words are not', () => {
    expect(looksLikeSessionId('0f3c2a9e-1b2c-4d5e-8f90-123456789abc')).toBe(true);
    expect(looksLikeSessionId('0f3c2a9e')).toBe(true);
    expect(looksLikeSessionId('fix the bug')).toBe(false);
    expect(looksLikeSessionId('deadbeef-cafe-babe-feed-facefacefacefaceface')).toBe(false);
  });
});

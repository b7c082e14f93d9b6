import { cleanup, render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { Transcript } from '../../../src/tui/transcript/Transcript';
import type { Item } from '../../../src/tui/transcript/transcript-state';
import { eventually, frame } from '../helpers';

afterEach(() => cleanup());

// The "⋮" line above live items says that rows are held back until the answer is finished: it shows
// only when they are, and it is never cut at the edge.
describe('the held-back note above the live items', () => {
  it('does not show for a one-line answer that fits the rows it is given, which shows whole', async () => {
    const text = 'Renaming every constant in src/big.ts, one by one, now.';
    const live: Item[] = [{ kind: 'assistant', key: 1, text, streaming: true }];
    const app = render(<Transcript done={[]} live={live} columns={60} maxLiveRows={2} />);
    await eventually(() => expect(frame(app.lastFrame)).toContain(text));
    expect(frame(app.lastFrame)).not.toContain('⋮');
  });

  it.each([100, 60, 40])(
    'at %i columns says how many rows are held back, in words that fit',
    async (columns) => {
      const list = Array.from({ length: 40 }, (_, i) => `- item ${i + 1}`).join('\n');
      const live: Item[] = [{ kind: 'assistant', key: 1, text: list, streaming: true }];
      const app = render(<Transcript done={[]} live={live} columns={columns} maxLiveRows={12} />);
      await eventually(() => expect(frame(app.lastFrame)).toMatch(/⋮ 30 lines above/));
      const out = frame(app.lastFrame).split('\n');
      expect(out.length).toBeLessThanOrEqual(12);
      expect(out[0]).not.toContain('…');
      expect(stringWidth(out[0])).toBeLessThanOrEqual(columns);
      expect(out.at(-1)).toContain('item 40');
      if (columns >= 60) expect(out[0]).toMatch(/in full when/);
    },
  );
});

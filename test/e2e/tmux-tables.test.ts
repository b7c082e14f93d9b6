import { join } from 'node:path';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/cli';
import { fault, reply } from '../support/fake-anthropic';
import { appInTmux, tmuxMissing } from '../support/app-in-tmux';
import { alignedTables, borderColumns } from '../support/table-lines';
import { startTmux } from '../support/tmux';
import { VirtualTerminal } from '../support/vt';

// A table answer streamed in small chunks into the built CLI in a real terminal (tmux), read back
// from the whole scrollback, with every byte codey wrote recorded and played again.
const app = appInTmux();

const BEFORE = ['$ make check', 'shell-line-before-codey-1', 'shell-line-before-codey-2'];

const row = (...cells: string[]) => `| ${cells.join(' | ')} |`;
const NAMES = Array.from({ length: 14 }, (_, i) => `item-${String(i + 1).padStart(2, '0')}`);
const TABLE = [
  row('Name', 'Owner', 'Status', 'Notes'),
  row(':---', ':---:', ':---:', '---:'),
  ...NAMES.map((name, i) =>
    row(
      `\`${name}\``,
      ['前端团队', 'バックエンド', 'ops'][i % 3],
      ['✅ done', '🚧 wip', '❌ failed'][i % 3],
      i % 2 === 0
        ? 'A note long enough that it has to wrap inside its cell when the terminal is narrow.'
        : '说明文字也要在单元格里正确换行，并且不能超出终端的宽度。',
    ),
  ),
].join('\n');
const CLOSING = 'That is every item; the table above is complete.';

/** Lines of a drawn table on `screen` (indented past the `● ` marker), and their border columns agree. */
function expectAlignedRows(screen: string, width: number) {
  const lines = screen.split('\n');
  for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(width);
  const drawn = lines.filter((l) => /^(● | {2})[┌├│└]/.test(l));
  expect(drawn.length).toBeGreaterThan(3);
  for (const line of drawn) expect(borderColumns(line), line).toEqual(borderColumns(drawn[0]));
}

describe.skipIf(tmuxMissing)('a streamed table in a real terminal', () => {
  it.each([
    [100, 30],
    [60, 20],
  ])(
    'at %i×%i it is a table mid-stream and at the end, drawn once, no line wider than the terminal at any moment',
    async (width, height) => {
      const answer = `Here is the status:\n\n${TABLE}\n\n${CLOSING}`;
      // The first answer stops half-way through the table (the person presses Esc); the second is whole.
      app.fake.enqueue(
        fault.hang({ afterEvents: 90, reply: reply.text(answer, { chunkSize: 5 }) }),
        reply.text(answer, { chunkSize: 5 }),
      );
      const record = join(app.box.root, 'pane.bytes');
      const t = startTmux({
        argv: ['node', BIN],
        cwd: app.box.cwd,
        env: app.box.env,
        width,
        height,
        before: BEFORE,
        record,
      });
      app.term = t;
      await t.waitFor('the input box', (s) => s.includes('Ask codey'));
      t.type('show the status table');
      t.keys('Enter');
      const mid = await t.waitFor(
        'half the table',
        (s) => s.includes('item-03') && s.includes('Esc interrupts'),
      );
      expect(mid).not.toContain('item-14');
      expectAlignedRows(mid, width);
      t.keys('Escape');
      await t.waitFor('the input back', (s) => s.includes('Ask codey') && !s.includes('Esc interrupts'));
      t.type('again, all of it');
      t.keys('Enter');
      await t.waitFor('the end of the answer', (s) => s.includes(CLOSING) && s.includes('Ask codey'));

      const rows = t.scrollback().split('\n');
      expect(rows.slice(0, BEFORE.length)).toEqual(BEFORE);
      for (const r of rows) expect(stringWidth(r)).toBeLessThanOrEqual(width);
      expect(t.scrollback(true).split('\n')).toHaveLength(rows.length);
      // The interrupted table as far as it came, then the whole one.
      const tables = alignedTables(rows);
      expect(tables).toHaveLength(2);
      for (const name of NAMES) expect(tables[1].filter((r) => r.includes(name))).toHaveLength(1);
      expect(rows.filter((r) => r.includes(CLOSING))).toHaveLength(1);
      expect(rows.join('\n')).not.toContain('| ---');

      // Every frame on the way, played again: nothing ran past the right edge, nothing was wiped.
      const bytes = t.recorded();
      expect(bytes).not.toContain('\u001b[2J');
      expect(bytes).not.toContain('\u001b[3J');
      const vt = new VirtualTerminal(width, height);
      vt.write(bytes);
      expect(vt.autoWrapped).toBe(0);
    },
    60_000,
  );
});

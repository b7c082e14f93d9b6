import { Box } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../src/approval/types';
import { ApprovalPrompt, type FullPreview } from '../../../src/tui/approval/ApprovalPrompt';
import { Transcript } from '../../../src/tui/transcript/Transcript';
import type { Item } from '../../../src/tui/transcript/transcript-state';
import { eventually, frame, mounted, tick } from '../helpers';

afterEach(() => cleanup());

const fileLines = Array.from({ length: 30 }, (_, i) => `export const line${i + 1} = ${i + 1};`);
const write: ApprovalRequest = {
  tool: 'write_file',
  kind: 'execute',
  summary: 'Write notes.ts',
  detail: 'notes.ts',
  rememberable: true,
  preview: { kind: 'diff', path: 'f', before: null, after: fileLines.join('\n') + '\n' },
};

function prompt(request: ApprovalRequest, maxRows: number, columns: number) {
  const shown: FullPreview[] = [];
  const app = render(
    <Box width={columns} flexDirection="column">
      <ApprovalPrompt
        answerDelayMs={0}
        request={request}
        displayName="Write"
        onDecision={() => {}}
        onInterrupt={() => {}}
        maxRows={maxRows}
        columns={columns}
        onShowAll={(p) => shown.push(p)}
      />
    </Box>,
  );
  return { app, shown, lines: () => frame(app.lastFrame).split('\n') };
}

describe('the approval prompt within a height', () => {
  it.each([
    [24, 100],
    [14, 60],
  ])(
    'within %i rows at %i columns: header, file, first lines, "+N more lines, press d", every choice',
    (maxRows, columns) => {
      const { lines } = prompt(write, maxRows, columns);
      const out = lines();
      expect(out.length).toBeLessThanOrEqual(maxRows);
      for (const line of out) expect(stringWidth(line)).toBeLessThanOrEqual(columns);
      const text = out.join('\n');
      expect(text).toContain('Write: Write notes.ts');
      expect(text).toContain('notes.ts');
      expect(text).toContain('export const line1 = 1;');
      expect(text).toMatch(/… \+\d+ more lines, press d to see all/);
      for (const n of [1, 2, 3, 4, 5]) expect(text).toContain(`${n}. `);
    },
  );

  it('"d" hands over the whole preview once and says it is shown above', async () => {
    const { app, shown, lines } = prompt(write, 14, 60);
    await mounted(app.stdin);
    app.stdin.write('d');
    await tick();
    app.stdin.write('d');
    await eventually(() => expect(lines().join('\n')).toContain('shown in full above'));
    expect(shown).toEqual([
      { title: 'Write: Write notes.ts', detail: 'notes.ts', before: '', after: write.preview!.after },
    ]);
  });

  it('a 3 MB one-line file shows as one line cut at the edge', () => {
    const huge = {
      ...write,
      preview: { kind: 'diff' as const, path: 'f', before: null, after: 'x'.repeat(3_000_000) },
    };
    const { lines } = prompt(huge, 14, 60);
    const out = lines();
    expect(out.length).toBeLessThanOrEqual(14);
    for (const line of out) expect(stringWidth(line)).toBeLessThanOrEqual(60);
    expect(out.join('\n')).toMatch(/1 \+ x+…/);
  });
});

describe('the live part of the transcript within a height', () => {
  const list = Array.from({ length: 40 }, (_, i) => `- item ${i + 1}`).join('\n');
  const live: Item[] = [{ kind: 'assistant', key: 1, text: list, streaming: true }];

  it('shows the last rows of a streaming list taller than it may be, under a "⋮" line', () => {
    const app = render(<Transcript done={[]} live={live} columns={100} maxLiveRows={12} />);
    const out = frame(app.lastFrame).split('\n');
    expect(out.length).toBeLessThanOrEqual(12);
    expect(out[0]).toContain('⋮ 30 lines above this show in full when the answer is finished');
    expect(out.at(-1)).toContain('item 40');
    expect(out.join('\n')).not.toContain('item 1\n');
  });

  it('shows everything when it fits', () => {
    const app = render(<Transcript done={[]} live={live} columns={100} maxLiveRows={60} />);
    const out = frame(app.lastFrame);
    expect(out).toContain('• item 1\n');
    expect(out).toContain('item 40');
    expect(out).not.toContain('⋮');
  });
});

describe('a change at the end of a long line', () => {
  it('still shows as a removed and an added line', () => {
    const long = 'const data = [' + '1, '.repeat(200);
    const edit: ApprovalRequest = {
      ...write,
      tool: 'edit_file',
      summary: 'Edit data.ts',
      detail: 'data.ts',
      preview: { kind: 'diff', path: 'f', before: `${long}2];\n`, after: `${long}3];\n` },
    };
    const { lines } = prompt(edit, 24, 100);
    const text = lines().join('\n');
    expect(text).toMatch(/1 - const data = \[1, 1,/);
    expect(text).toMatch(/1 \+ const data = \[1, 1,/);
  });
});

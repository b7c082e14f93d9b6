import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/events';
import { cutCells, wrapCells } from '../../../src/tui/text/cells';
import { MAX_CHILD_CALLS, MAX_CHILD_DETAIL } from '../../../src/tui/transcript/transcript-child';
import {
  initialTranscript,
  reduceTranscript,
  type ToolItem,
} from '../../../src/tui/transcript/transcript-state';
import { headerLine, viewerFrame, wrapPage } from '../../../src/tui/viewer/viewer-frame';
import { MAX_PAGE_LINES, isViewable, viewerPage } from '../../../src/tui/viewer/viewer-page';
import { hostileText } from '../../support/hostile-text';

const spawn: AgentEvent = {
  type: 'tool_start',
  id: 's1',
  name: 'spawn_agent',
  displayName: 'Agent',
  input: { task: 'read everything' },
  summary: 'Reader',
  detail: 'read everything',
  shows: 'subagent',
};

function childCalls(n: number, detail = (i: number) => `src/f${i}.ts`): AgentEvent[] {
  const tag = { agentId: 'a1', parentToolUseId: 's1' };
  return Array.from({ length: n }, (_, i) => [
    {
      type: 'tool_start' as const,
      id: `c${i}`,
      name: 'read_file',
      displayName: 'Read',
      input: {},
      summary: '',
      detail: detail(i),
      ...tag,
    },
    {
      type: 'tool_end' as const,
      id: `c${i}`,
      name: 'read_file',
      displayName: 'Read',
      status: i % 2 ? ('error' as const) : ('done' as const),
      output: 'x',
      durationMs: 1,
      ...tag,
    },
  ]).flat();
}

const toolOf = (s: ReturnType<typeof initialTranscript>) =>
  [...s.done, ...s.live].find((i) => i.kind === 'tool') as ToolItem;

describe('what the viewer keeps and shows', () => {
  it('keeps the latest calls of a child with hundreds of them, each detail capped, and counts the rest', () => {
    const s = reduceTranscript(
      initialTranscript(),
      [spawn, ...childCalls(750, (i) => `${i}:${'p'.repeat(5000)}`)],
      0,
    );
    const item = toolOf(s);
    expect(item.child?.calls).toHaveLength(MAX_CHILD_CALLS);
    expect(item.child?.dropped).toBe(550);
    expect(item.child?.calls[0].detail.startsWith('550:')).toBe(true);
    expect(Math.max(...item.child!.calls.map((c) => c.detail.length))).toBe(MAX_CHILD_DETAIL);
    expect(item.child?.calls.at(-1)?.status).toBe('error');
    const text = viewerPage(item).lines.map((l) => l.text);
    expect(text).toContain('Tool calls (750)');
    expect(text).toContain('  … 550 earlier tool calls not kept');
    expect(text).toContain('  (still running)');
  });

  it("a finished child's page: task, each call with its status, report", () => {
    const s = reduceTranscript(
      initialTranscript(),
      [
        spawn,
        ...childCalls(2),
        {
          type: 'tool_end',
          id: 's1',
          name: 'spawn_agent',
          displayName: 'Agent',
          status: 'done',
          output: 'All read.\n\n[subagent a1: 1 request]',
          display: { kind: 'subagent', agentId: 'a1', task: 'read everything' },
          durationMs: 3,
        },
      ],
      0,
    );
    const page = viewerPage(toolOf(s));
    expect(page.title).toBe('Agent(Reader)');
    expect(page.lines.map((l) => l.text)).toEqual([
      'done',
      '',
      'Task',
      '  read everything',
      '',
      'Tool calls (2)',
      '  · Read(src/f0.ts)',
      '  · Read(src/f1.ts) failed',
      '',
      'Report',
      '  All read.',
      '',
      '  [subagent a1: 1 request]',
    ]);
  });

  it('caps a page at MAX_PAGE_LINES with a note of how many lines were not kept', () => {
    const output = Array.from({ length: MAX_PAGE_LINES + 345 }, (_, i) => `l${i}`).join('\n');
    const page = viewerPage({
      kind: 'tool',
      key: 1,
      id: 't',
      name: 'x',
      displayName: 'X',
      summary: '',
      detail: 'd',
      input: {},
      status: 'done',
      startedAt: 0,
      awaitingApproval: false,
      output,
    });
    expect(page.lines.at(-1)).toEqual({ text: '… 345 lines not kept', tone: 'muted' });
    expect(page.lines.filter((l) => /^l\d+$/.test(l.text))).toHaveLength(MAX_PAGE_LINES);
  });

  it('shows no control sequence from the text it is given', () => {
    const thinking = {
      kind: 'thinking' as const,
      key: 1,
      text: `before ${hostileText('\u001b[31m')} after`,
      streaming: false,
    };
    const frame = viewerFrame('Thinking', wrapPage(viewerPage(thinking), 60), {
      index: 0,
      count: 1,
      scroll: 0,
      columns: 60,
      rows: 10,
    });
    const body = frame.rows.slice(1).join('\n');
    // Only codey's own SGR codes (dim, reset) are left.
    expect(body.replace(/\u001b\[(?:0|2)m/g, '')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(body).toContain('before');
    expect(body).toContain('after');
  });

  it('only items with something more to show are viewable', () => {
    expect(isViewable({ kind: 'thinking', key: 1, text: '  ', streaming: false })).toBe(false);
    expect(isViewable({ kind: 'user', key: 1, text: 'hi' })).toBe(false);
    expect(isViewable({ kind: 'thinking', key: 1, text: 'hm', streaming: true })).toBe(true);
  });
});

describe('the viewer frame fits the terminal', () => {
  it.each([100, 60, 20])(
    'at %i columns no row is wider than the terminal, wide characters too',
    (columns) => {
      const page = {
        title: `Bash(${'这是一个很长的命令'.repeat(8)})`,
        lines: [
          { text: '这是一个很长的中文句子，用来测试终端的换行是否正确处理宽字符。'.repeat(4) },
          { text: 'Rocket 🚀 launch 🎉 party\twith a tab '.repeat(6) },
          { text: 'plain '.repeat(50) },
        ],
      };
      const frame = viewerFrame(page.title, wrapPage(page, columns), {
        index: 1,
        count: 9,
        scroll: 0,
        columns,
        rows: 20,
      });
      expect(frame.rows).toHaveLength(20);
      const strip = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
      for (const row of frame.rows) expect(stringWidth(strip(row))).toBeLessThanOrEqual(columns);
      // The header bar spans the whole width.
      expect(stringWidth(strip(frame.rows[0]))).toBe(columns);
    },
  );

  it('says what is shown and the keys at 60 columns, with a shorter key list when narrow', () => {
    expect(headerLine('Bash(npm test)', '2/5', '1–19 of 200', 100)).toBe(
      ' 2/5 Bash(npm test) · 1–19 of 200 · ↑↓ PgUp PgDn scroll · ←→ item · Esc close ',
    );
    const narrow = headerLine(
      'Bash(npm run test -- --coverage --reporter verbose)',
      '2/5',
      '1–19 of 200',
      60,
    );
    expect(stringWidth(narrow)).toBeLessThanOrEqual(60);
    expect(narrow).toContain('2/5 Bash(npm run');
    expect(narrow).toContain('Esc close');
  });

  it('cuts and wraps by cells', () => {
    expect(cutCells('这是一个', 5)).toBe('这是…');
    expect(wrapCells('这是一个', 5)).toEqual(['这是', '一个']);
    expect(wrapCells('', 5)).toEqual(['']);
  });
});

/**
 * What the Ctrl+O viewer shows of a transcript item: a title for its header and the whole of what
 * the collapsed view leaves out (a tool call's output or diff, a thinking block's text, a subagent's
 * task, tool calls and report). Pure: the text comes from the transcript, where it already passed
 * through `forTerminal`; it passes again here, so the viewer never depends on that.
 */
import { forTerminal } from '../../util/terminal-text';
import { withCommas, firstLine, splitLines } from '../../util/text';
import { diffLines, diffStat, toHunks } from '../text/diff';
import { formatElapsed } from '../text/format';
import type { Item, ToolItem, ToolStatus } from '../transcript/transcript-types';

/** How a line of the viewer is drawn. */
export type Tone = 'plain' | 'muted' | 'heading' | 'added' | 'removed' | 'error';

export interface PageLine {
  text: string;
  tone?: Tone;
}

export interface ViewerPage {
  /** One line: what is shown, e.g. `Bash(npm test)`. */
  title: string;
  lines: PageLine[];
}

/**
 * Lines of one text (an output, a thinking block, a report, a diff) the viewer shows; the rest is
 * counted. The viewer wraps only the rows on screen, so this many cost about one number each.
 */
export const MAX_PAGE_LINES = 100_000;
/** Characters of one line the viewer shows; the rest is counted on the line. */
export const MAX_LINE_CHARS = 50_000;

/**
 * Items the viewer can show: a thinking block, a tool call with output or a diff, a subagent call,
 * an approval's whole preview (asked for with "d").
 */
export type ViewableItem =
  Extract<Item, { kind: 'thinking' }> | Extract<Item, { kind: 'preview' }> | ToolItem;

/** Whether `item` has more to show than its collapsed view in the transcript. */
export function isViewable(item: Item): item is ViewableItem {
  if (item.kind === 'preview') return true;
  if (item.kind === 'thinking') return item.text.trim() !== '';
  if (item.kind !== 'tool') return false;
  if (isSubagent(item)) return true;
  if (item.display?.kind === 'diff') return true;
  return Boolean(item.output?.trim() || item.progress?.trim());
}

function isSubagent(item: ToolItem): boolean {
  return item.display?.kind === 'subagent' || (item.display === undefined && item.shows === 'subagent');
}

const STATUS: Record<ToolStatus, string> = {
  running: 'running',
  done: 'done',
  error: 'failed',
  denied: 'rejected',
  interrupted: 'interrupted',
};

/** `line` up to {@link MAX_LINE_CHARS}, then how many characters more there were. */
function keptLine(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const more = withCommas(line.length - MAX_LINE_CHARS);
  return `${line.slice(0, MAX_LINE_CHARS)} … ${more} more characters not kept`;
}

/** `text`'s lines, at most {@link MAX_PAGE_LINES}, then a note of how many more there were. */
function textLines(text: string, tone: Tone = 'plain', indent = ''): PageLine[] {
  const lines = splitLines(forTerminal(text).replace(/\s+$/, ''));
  const kept = lines.slice(0, MAX_PAGE_LINES).map((l) => ({ text: l ? indent + keptLine(l) : '', tone }));
  const more = lines.length - kept.length;
  if (more > 0) kept.push({ text: `${indent}… ${withCommas(more)} lines not kept`, tone: 'muted' });
  return kept;
}

function statusLine(item: ToolItem): PageLine {
  const time =
    item.status === 'running'
      ? ''
      : (item.durationMs ?? 0) >= 1000
        ? ` in ${formatElapsed(item.durationMs ?? 0)}`
        : '';
  const parts = [`${STATUS[item.status]}${time}`];
  if (item.note) parts.push(forTerminal(item.note));
  if (item.rejectedWith) parts.push(`the person said: ${forTerminal(item.rejectedWith)}`);
  return { text: parts.join(' · '), tone: item.status === 'error' ? 'error' : 'muted' };
}

function diffPage(change: { before?: string | null; after: string }, output?: string): PageLine[] {
  // Made safe whole, once: newlines are kept, so the diff's lines are the same.
  const all = diffLines(forTerminal(change.before ?? ''), forTerminal(change.after));
  const stat = diffStat(all);
  const hunks = toHunks(all);
  const last = hunks.at(-1);
  const width = last
    ? String(Math.max(last.oldStart + last.oldLines, last.newStart + last.newLines)).length
    : 1;
  const out: PageLine[] = [{ text: `+${stat.added} −${stat.removed}`, tone: 'muted' }];
  let rows = 0;
  let more = 0;
  hunks.forEach((h, i) => {
    for (const [k, line] of h.lines.entries()) {
      if (rows >= MAX_PAGE_LINES) {
        more += h.lines.length - k;
        return;
      }
      if (i > 0 && k === 0) out.push({ text: `${' '.repeat(width)} ⋮`, tone: 'muted' });
      const no = String(line.op === '-' ? line.oldNo : line.newNo).padStart(width);
      const tone: Tone = line.op === '+' ? 'added' : line.op === '-' ? 'removed' : 'muted';
      out.push({ text: `${no} ${line.op} ${keptLine(line.text)}`, tone });
      rows++;
    }
  });
  if (hunks.length === 0) out.push({ text: 'no changes', tone: 'muted' });
  if (more > 0) out.push({ text: `… ${withCommas(more)} lines not kept`, tone: 'muted' });
  if (output?.trim()) out.push({ text: '' }, ...textLines(output, 'muted'));
  return out;
}

function subagentPage(item: ToolItem): PageLine[] {
  const task = item.display?.kind === 'subagent' ? item.display.task : item.detail;
  const calls = item.child?.calls ?? [];
  const dropped = item.child?.dropped ?? 0;
  const total = calls.length + dropped;
  const out: PageLine[] = [
    statusLine(item),
    { text: '' },
    { text: 'Task', tone: 'heading' },
    ...textLines(task, 'plain', '  '),
    { text: '' },
    { text: `Tool calls (${withCommas(total)})`, tone: 'heading' },
  ];
  if (total === 0) out.push({ text: '  none', tone: 'muted' });
  if (dropped > 0)
    out.push({ text: `  … ${withCommas(dropped)} earlier tool calls not kept`, tone: 'muted' });
  for (const c of calls) {
    const status = c.status === 'done' ? '' : ` ${STATUS[c.status]}`;
    out.push({
      text: forTerminal(
        `  ${c.status === 'running' ? '▸' : '·'} ${c.displayName}(${firstLine(c.detail, 200)})${status}`,
      ),
      tone: c.status === 'error' ? 'error' : 'plain',
    });
  }
  out.push({ text: '' }, { text: 'Report', tone: 'heading' });
  if (item.status === 'running') out.push({ text: '  (still running)', tone: 'muted' });
  else if (item.output?.trim()) out.push(...textLines(item.output, 'plain', '  '));
  else out.push({ text: `  ${item.title ? forTerminal(item.title) : 'none'}`, tone: 'muted' });
  return out;
}

/** The page of `item`: its title and every line the viewer shows. */
export function viewerPage(item: ViewableItem): ViewerPage {
  if (item.kind === 'thinking') return { title: 'Thinking', lines: textLines(item.text, 'muted') };
  if (item.kind === 'preview') {
    const lines: PageLine[] = [
      { text: 'in full, for the prompt waiting below (Esc goes back to it)', tone: 'muted' },
    ];
    if (item.detail.trim()) lines.push({ text: '' }, ...textLines(item.detail, 'plain'));
    if (item.after !== undefined)
      lines.push({ text: '' }, ...diffPage({ before: item.before, after: item.after }));
    return { title: forTerminal(firstLine(item.title, 120)), lines };
  }
  if (isSubagent(item)) {
    const label = forTerminal(firstLine(item.summary || item.displayName, 80));
    return { title: `${forTerminal(item.displayName)}(${label})`, lines: subagentPage(item) };
  }
  const d = item.display;
  const shown = d?.kind === 'shell' ? d.command : d?.kind === 'diff' ? d.path : item.detail;
  const title = `${forTerminal(item.displayName)}(${forTerminal(firstLine(shown, 120))})`;
  if (d?.kind === 'diff') return { title, lines: [statusLine(item), ...diffPage(d, item.output)] };
  const lines: PageLine[] = [statusLine(item)];
  // A command or detail on several lines is shown whole above the output.
  if (shown.includes('\n')) lines.push({ text: '' }, ...textLines(shown, 'muted'));
  if (d?.kind === 'shell' && typeof d.exitCode === 'number')
    lines.push({ text: `exit ${d.exitCode}`, tone: d.exitCode === 0 ? 'muted' : 'error' });
  const text = item.output ?? item.progress ?? '';
  lines.push({ text: '' }, ...textLines(text, item.status === 'error' ? 'error' : 'plain'));
  return { title, lines };
}

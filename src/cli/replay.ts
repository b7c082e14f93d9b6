import { serverToolEvents } from '../agent/server-tools';
import type { ContentBlock, ContentBlockParam, MessageParam } from '../llm/types';
import type { Registry } from '../tools/registry';
import { displayName } from '../util/text';
import { capLine } from '../tools/truncate';
import { shellOutputItem } from '../tui/transcript/shell-output';
import type { TranscriptAction } from '../tui/transcript/transcript-state';
import { summaryHandoff } from '../agent/compaction-prompt';
import { INTERRUPTED } from '../agent/interrupt';
import { blocksOf } from '../llm/blocks';
import { promptDigest, type CompactionFacts, type StoredSession } from '../session/store';
import { COMPACTED_LINES } from '../tui/commands/builtin-commands';

type Block = ContentBlockParam;

/** The text a tool_result carries (its text blocks; other blocks, such as images, are named). */
function resultText(b: Extract<Block, { type: 'tool_result' }>): string {
  if (typeof b.content === 'string') return b.content;
  return (b.content ?? []).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}

/** `summary` and `detail` of a call as the tool describes it; the input as JSON when it cannot. */
function describeCall(registry: Registry, name: string, input: unknown): { summary: string; detail: string } {
  const parsed = registry.parse(name, input);
  if (parsed.ok) {
    try {
      const d = parsed.tool.describe(parsed.args as never);
      return { summary: capLine(d.summary), detail: d.detail };
    } catch {
      // Shown from the raw input below.
    }
  }
  const json = JSON.stringify(input) ?? '';
  return { summary: capLine(json), detail: json };
}

/** First line of a compacted conversation's summary message (see `summaryHandoff`). */
const COMPACTED = summaryHandoff('').split('\n')[0];

/** What the store kept of how a conversation was shown (see {@link StoredSession}); none when new. */
export type Shown = Partial<Pick<StoredSession, 'toolShown' | 'prompts' | 'compacted'>>;

/** The old marker of a summary, for a compaction the store has no figures of. */
const SUMMARY_MARKER: TranscriptAction = {
  type: 'info',
  title: 'Compacted',
  lines: ['The conversation before this point was replaced by its summary.'],
};

/**
 * A compaction as the live session showed it: its line (and for `/compact` the command and what it
 * answered); without its figures, the summary marker.
 */
function compactionMarker(facts: CompactionFacts): TranscriptAction[] {
  const { trigger, window, tokens_before, tokens_after } = facts;
  if (!trigger || window === undefined || tokens_before === undefined || tokens_after === undefined)
    return [SUMMARY_MARKER];
  const line: TranscriptAction = {
    type: 'compaction',
    trigger,
    window,
    tokensBefore: tokens_before,
    tokensAfter: tokens_after,
    replaced: facts.replaced,
    summary: '',
    droppedMessages: 0,
  };
  if (trigger !== 'manual') return [line];
  const typed = facts.focus ? `/compact ${facts.focus}` : '/compact';
  return [{ type: 'user_prompt', text: typed }, line, { type: 'info', lines: [...COMPACTED_LINES] }];
}

/**
 * A user message's text blocks as the person saw them: codey's own notes to the model (an
 * interrupted answer, a compaction summary) drawn as what they stand for; a block the store has a
 * prompt line for as the `!` commands the person ran and their words; the rest as the prompt.
 */
function personText(
  texts: readonly string[],
  prompts: Shown['prompts'] = {},
  markers: boolean,
): TranscriptAction[] {
  const out: TranscriptAction[] = [];
  let plain: string[] = [];
  const flush = () => {
    const text = plain.join('\n');
    plain = [];
    if (text.trim()) out.push({ type: 'user_prompt', text });
  };
  for (const text of texts) {
    if (!text.trim() || text === INTERRUPTED.answer) continue;
    const sent = prompts[promptDigest(text)];
    if (text.startsWith(COMPACTED)) {
      flush();
      if (!markers) out.push(SUMMARY_MARKER);
    } else if (sent) {
      flush();
      out.push(...sent.shell.map((c) => shellOutputItem(c.command, c.exit, c.output)));
      plain.push(sent.said);
    } else plain.push(text);
  }
  flush();
  return out;
}

/**
 * The transcript actions that draw a stored conversation again in the TUI (a resumed session): the
 * person's messages, the answers, thinking, each tool call with its result, hosted tool calls.
 * A call is drawn as the store kept it (`shown`: its status, title, display and how its approval
 * was settled), else from the stored tool_result (what the model read); durations are unknown (0).
 */
export function transcriptOf(
  messages: readonly MessageParam[],
  registry: Registry,
  shown: Shown = {},
): TranscriptAction[] {
  const compacted = shown.compacted ?? [];
  const out: TranscriptAction[] = [];
  const calls = new Map<string, string>();
  // The messages each compaction replaced come first, each followed by its marker (the summaries
  // are then not drawn: the markers stand for them).
  for (const c of compacted) {
    out.push(...drawMessages(c.messages, registry, shown, calls));
    out.push(...compactionMarker(c.facts));
  }
  out.push(...drawMessages(messages, registry, shown, calls));
  out.push({ type: 'settle' });
  return out;
}

function drawMessages(
  messages: readonly MessageParam[],
  registry: Registry,
  shown: Shown,
  calls: Map<string, string>,
): TranscriptAction[] {
  const shownCalls = shown.toolShown ?? {};
  const markers = (shown.compacted ?? []).length > 0;
  const out: TranscriptAction[] = [];
  for (const m of messages) {
    if (m.role === 'user') {
      const texts = blocksOf(m.content)
        .filter((b): b is Extract<Block, { type: 'text' }> => b.type === 'text')
        .map((b) => b.text);
      for (const b of blocksOf(m.content)) {
        if (b.type !== 'tool_result') continue;
        const name = calls.get(b.tool_use_id) ?? 'tool';
        const { status, title, display, decision } = shownCalls[b.tool_use_id] ?? {};
        if (decision) out.push({ type: 'approval_decision', id: b.tool_use_id, ...decision });
        out.push({
          type: 'tool_end',
          id: b.tool_use_id,
          name,
          displayName: registry.get(name)?.displayName ?? displayName(name),
          status: status ?? (b.is_error ? 'error' : 'done'),
          output: resultText(b),
          ...(title ? { title } : {}),
          ...(display ? { display } : {}),
          durationMs: 0,
        });
      }
      out.push(...personText(texts, shown.prompts, markers));
      continue;
    }
    for (const b of blocksOf(m.content)) {
      if (b.type === 'text') out.push({ type: 'text', text: b.text });
      else if (b.type === 'thinking') out.push({ type: 'thinking', text: b.thinking });
      else if (b.type === 'tool_use') {
        calls.set(b.id, b.name);
        out.push({
          type: 'tool_start',
          id: b.id,
          name: b.name,
          displayName: registry.get(b.name)?.displayName ?? displayName(b.name),
          input: b.input,
          ...describeCall(registry, b.name, b.input),
        });
      } else out.push(...serverToolEvents(b as unknown as ContentBlock));
    }
  }
  return out;
}

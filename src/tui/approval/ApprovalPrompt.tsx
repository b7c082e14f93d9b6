import { FileDiff } from '../widgets/FileDiff';
import { Box, Text } from 'ink';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ApprovalRequest, Decision } from '../../approval/types';
import { useTheme } from '../widgets/theme';
import { PASTE_END, PASTE_START, endsWithEnter, useKeys, useStallCheck } from '../terminal/keys';
import { capLineWidth, capTextWidth } from '../text/line-cap';
import { FIELD_LABEL, MAX_DETAIL_CELLS, cutDetail, detailRows, moreHints, promptRows } from './prompt-rows';
import { hiddenWarning } from '../../util/hidden-chars';
import { withCommas } from '../../util/text';

export interface ApprovalChoice {
  label: string;
  /** Absent for "No, and tell the model…", which asks for a line of text first. */
  decision?: Decision;
}

/**
 * The choices for `request`, in order: yes once; yes with network (a sandboxed command that did not
 * ask for it); yes outside the sandbox (any sandboxed command: the person's choice alone); always for the tool; always for the detail (only when rememberable); always for the
 * domain (only when the request names one); no; no with a message. A yes to a sandboxed command
 * that asks for the network gives it the network.
 */
export function approvalChoices(request: ApprovalRequest, displayName: string): ApprovalChoice[] {
  const choices: ApprovalChoice[] = [{ label: 'Yes', decision: { kind: 'allow_once' } }];
  if (request.sandboxed && !request.network)
    choices.push({ label: 'Yes, with network', decision: { kind: 'allow_network' } });
  if (request.sandboxed)
    choices.push({ label: 'Yes, outside the sandbox', decision: { kind: 'allow_unsandboxed' } });
  choices.push({
    label: `Yes, always for ${request.toolNoun ?? displayName}`,
    decision: { kind: 'allow_tool' },
  });
  if (request.rememberable) {
    choices.push({
      label: `Yes, always for ${request.noun ?? 'this exact call'}`,
      decision: { kind: 'allow_detail' },
    });
  }
  if (request.domain) {
    choices.push({ label: `Yes, always for ${request.domain}`, decision: { kind: 'allow_domain' } });
  }
  choices.push({ label: 'No', decision: { kind: 'deny' } });
  choices.push({ label: 'No, and tell the model what to do instead' });
  return choices;
}

/** What "d" prints above the prompt: the whole detail and change. */
export interface FullPreview {
  title: string;
  detail: string;
  before?: string;
  after?: string;
}

export interface ApprovalPromptProps {
  request: ApprovalRequest;
  displayName: string;
  onDecision: (decision: Decision) => void;
  /**
   * Esc or Ctrl+C: stop the whole turn. The loop answers the call "interrupted while asking" and the
   * person gets the input back.
   */
  onInterrupt: () => void;
  /**
   * Rows the prompt may take, its border included (default: no limit). The header and the choices
   * always show; the detail and the diff get what is left, then say "+N more lines, press d to see all".
   */
  maxRows?: number;
  /** The terminal's width in cells; preview lines are cut to fit it (default 100). */
  columns?: number;
  /** Characters of the request written as `\u` escapes (`shownRequest`): a warning line says how many. */
  hidden?: number;
  /** Keys read sooner than this (ms) after the prompt is drawn are dropped; default {@link ANSWER_DELAY_MS}. */
  answerDelayMs?: number;
  /** Called by "d" when something was left out: the app prints it in full above the prompt. */
  onShowAll?: (preview: FullPreview) => void;
}

const DROPPED = 'A key pressed as this prompt appeared was ignored: press it again to answer.';
/**
 * Keys read within this many ms of the prompt being drawn answer nothing: they were typed for
 * something else (a sentence in the input) or before anyone could read what will run.
 */
const ANSWER_DELAY_MS = 500;

/** Cells of a preview line that the prompt's diff compares and lays out. */
const DIFF_CELLS = 1000;
/** A preview line cut in the "d" view, in screen widths: a minified file still prints in a moment. */
const FULL_VIEW_WIDTHS = 20;

/**
 * Asks whether a tool call may run. Keys: ↑/↓ and Enter, the digits, `y` (yes once), `n` (no), Esc
 * and Ctrl+C (stop the turn). The last choice opens a one-line input whose text goes back to the
 * model with the refusal.
 */
export function ApprovalPrompt({
  request,
  displayName,
  onDecision,
  onInterrupt,
  maxRows = Number.POSITIVE_INFINITY,
  columns = 100,
  hidden = 0,
  answerDelayMs = ANSWER_DELAY_MS,
  onShowAll,
}: ApprovalPromptProps) {
  const theme = useTheme();
  const choices = approvalChoices(request, displayName);
  const [selected, setSelectedState] = useState(0);
  const [message, setMessageState] = useState<string | undefined>(undefined);
  const [dropped, setDropped] = useState(false);
  const [shownAll, setShownAll] = useState(false);
  // Refs hold the truth between renders, so keys that arrive together each see the last one's effect.
  const current = useRef({
    selected: 0,
    message: undefined as string | undefined,
    answered: false,
    pasting: false,
    seen: false,
    drawnAt: Number.POSITIVE_INFINITY,
  });
  // When the app was stalled just before the prompt was drawn, keys pressed meanwhile waited in the
  // terminal and are read right after the draw: they were pressed before anyone could see the
  // prompt, so they must not answer it. Those are read before the next check phase of the event
  // loop; answers count from then on. Esc and Ctrl+C always stop the turn.
  const stalled = useStallCheck();
  useLayoutEffect(() => {
    current.current.drawnAt = performance.now();
    if (!stalled()) {
      current.current.seen = true;
      return;
    }
    const timer = setImmediate(() => {
      current.current.seen = true;
    });
    return () => clearImmediate(timer);
  }, [stalled]);
  const setSelected = (n: number) => {
    current.current.selected = n;
    setSelectedState(n);
  };
  const setMessage = (m: string | undefined) => {
    current.current.message = m;
    setMessageState(m);
  };
  const decide = (decision: Decision) => {
    if (current.current.answered) return;
    current.current.answered = true;
    onDecision(decision);
  };

  // Also after an answer: the prompt may still hold the keys for a moment, and a stop must not be lost.
  const interrupt = () => {
    current.current.answered = true;
    onInterrupt();
  };

  const choose = (index: number) => {
    const choice = choices[index];
    if (!choice) return;
    if (choice.decision) decide(choice.decision);
    else setMessage('');
  };

  const send = (message: string) => {
    const text = message.trim();
    decide(text ? { kind: 'deny_with_message', message: text } : { kind: 'deny' });
  };
  // One line of text: a paste's line breaks and tabs become spaces.
  const withoutBreaks = (text: string) => text.replace(/[\r\n\t]+/g, ' ');

  useKeys((input, key) => {
    const c = current.current;
    const { selected: sel, message: msg } = c;
    if (input === PASTE_START || input === PASTE_END) {
      c.pasting = input === PASTE_START;
      return;
    }
    // Ctrl+C, and Esc outside the text box (where it goes back to the choices), stop the turn.
    if ((key.ctrl && input === 'c') || (key.escape && msg === undefined)) return interrupt();
    if (!c.seen || performance.now() - c.drawnAt < answerDelayMs) return setDropped(true);
    if (msg !== undefined) {
      if (c.pasting) setMessage(msg + withoutBreaks(key.return ? ' ' : input));
      else if (key.escape) setMessage(undefined);
      else if (key.return) send(msg);
      else if (key.backspace || key.delete) setMessage(msg.slice(0, -1));
      // As in the main input: typed text that arrived with its Enter is sent at once.
      else if (!key.ctrl && !key.meta && endsWithEnter(input)) send(msg + input.slice(0, -1));
      else if (!key.ctrl && !key.meta && input) setMessage(msg + withoutBreaks(input));
      return;
    }
    if (input === 'n' || input === 'N') decide({ kind: 'deny' });
    else if (input === 'y' || input === 'Y') decide({ kind: 'allow_once' });
    else if ((input === 'd' || input === 'D') && cut && !shownAll && onShowAll) {
      setShownAll(true);
      onShowAll(fullPreview());
    } else if (key.upArrow) setSelected((sel + choices.length - 1) % choices.length);
    else if (key.downArrow || key.tab) setSelected((sel + 1) % choices.length);
    else if (key.return) choose(sel);
    else if (/^[1-9]$/.test(input) && Number(input) <= choices.length) {
      // The highlight moves first, so the frame shows which choice the digit picked.
      setSelected(Number(input) - 1);
      choose(Number(input) - 1);
    }
  });

  // Cut before any diff or layout work, so a one-line megabyte file stays cheap; wider than the box,
  // so a change near the end of a long line still shows as a change (the rows cut at the edge).
  const inner = Math.max(8, columns - 4);
  const p = request.preview;
  const change = useMemo(
    () =>
      p && typeof p.after === 'string'
        ? {
            before: capTextWidth(typeof p.before === 'string' ? p.before : '', DIFF_CELLS),
            after: capTextWidth(p.after, DIFF_CELLS),
          }
        : undefined,
    [p],
  );
  // A summary that is only a verb and a one-line detail ("Run: ls" over "ls"): the detail says it.
  const summary =
    request.detail !== '' && request.summary.endsWith(`: ${request.detail}`) ? '' : request.summary;
  const header = `${displayName}${summary ? `: ${summary}` : ''}`;
  const keys =
    message !== undefined
      ? 'Enter send · Esc back'
      : `↑↓ Enter · 1-${choices.length} · y yes · n no · Esc interrupts`;
  const allDetail = useMemo(() => detailRows(request.detail, inner - 2), [request.detail, inner]);
  const warning = hidden > 0 ? hiddenWarning(hidden) : undefined;
  const notes = [
    ...(request.agent ? [`Subagent "${request.agent}" asks:`] : []),
    ...(warning ? [warning] : []),
    ...(dropped ? [DROPPED] : []),
  ];
  const rows = promptRows({
    header,
    inner,
    maxRows,
    choices: choices.length,
    selected,
    message,
    notes,
    detailLines: allDetail.rows.length,
    diff: change !== undefined,
  });
  const { onlyChosen, shownMessage, diffRows } = rows;
  const detail = cutDetail(allDetail, rows.detailShown, inner - 2);
  // A detail given one row shows its end: the header, one row, then holds its start.
  const endOnly = detail.head.length === 0 && detail.tail.length > 0;
  const shortHeader = rows.shortHeader || endOnly;
  const shownHeader = endOnly ? capLineWidth(`${displayName}: ${request.summary}`, inner) : rows.header;
  // Left out of the box: what "d" prints in full.
  const cut = detail.hidden > 0 || allDetail.cut || (change !== undefined && Number.isFinite(maxRows));
  const fullPreview = (): FullPreview => {
    const wide = columns * FULL_VIEW_WIDTHS;
    return {
      title: header,
      detail: capTextWidth(request.detail, wide),
      ...(p && typeof p.after === 'string'
        ? {
            before: capTextWidth(typeof p.before === 'string' ? p.before : '', wide),
            after: capTextWidth(p.after, wide),
          }
        : {}),
    };
  };
  const hints = moreHints(inner);
  const moreHint = onShowAll ? (shownAll ? hints.shown : hints.ask) : '';
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderRight={false}
      borderColor={theme.warning}
      paddingX={1}
    >
      {request.agent ? <Text color={theme.muted}>{`Subagent "${request.agent}" asks:`}</Text> : null}
      {shortHeader ? (
        <Text>
          <Text bold>{shownHeader.slice(0, displayName.length)}</Text>
          {shownHeader.slice(displayName.length)}
        </Text>
      ) : (
        <Text>
          <Text bold>{displayName}</Text>
          {summary ? <Text>{`: ${summary}`}</Text> : null}
        </Text>
      )}
      {detail.head.length + detail.tail.length > 0 ? (
        <Box flexDirection="column" paddingLeft={2} marginY={rows.margins / 2}>
          {detail.head.map((row, i) => (
            <Text key={i} color={row.mark ? theme.muted : theme.accent} wrap="truncate-end">
              {row.text || ' '}
            </Text>
          ))}
          {detail.hidden > 0 || allDetail.cut ? (
            <Text color={theme.muted}>
              {detail.hidden > 0
                ? `… +${detail.hidden} more lines${moreHint}`
                : `… a line is cut at ${withCommas(MAX_DETAIL_CELLS)} characters${moreHint}`}
            </Text>
          ) : null}
          {detail.tail.map((row, i) => (
            <Text key={`t${i}`} color={theme.accent} wrap="truncate-end">
              {row}
            </Text>
          ))}
        </Box>
      ) : null}
      {warning ? <Text color={theme.warning}>{warning}</Text> : null}
      {change ? (
        <Box marginBottom={1}>
          <FileDiff before={change.before} after={change.after} maxRows={diffRows} clip moreHint={moreHint} />
        </Box>
      ) : null}
      <Text>Allow this?</Text>
      {choices.map((c, i) =>
        onlyChosen && i !== selected ? null : (
          <Text
            key={i}
            color={i === selected ? theme.accent : undefined}
            bold={i === selected}
            wrap="truncate-end"
          >
            {`${i === selected ? '❯' : ' '} ${i + 1}. ${c.label}`}
          </Text>
        ),
      )}
      {message !== undefined ? (
        <Box marginTop={1}>
          <Box flexShrink={0}>
            <Text>{FIELD_LABEL}</Text>
          </Box>
          <Text>
            {shownMessage}
            <Text inverse> </Text>
          </Text>
        </Box>
      ) : null}
      {dropped ? <Text color={theme.warning}>{DROPPED}</Text> : null}
      <Text color={theme.muted} wrap="truncate-end">
        {keys}
      </Text>
    </Box>
  );
}

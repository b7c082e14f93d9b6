import { FileDiff } from './FileDiff';
import { Box, Text } from 'ink';
import { useRef, useState } from 'react';
import type { ApprovalRequest, Decision } from '../approval/types';
import { splitLines } from '../util/text';
import { useTheme } from './theme';
import { PASTE_END, PASTE_START, endsWithEnter, useKeys } from './keys';

/** Lines of the detail (a long command, a heredoc) shown before "+N lines". */
const MAX_DETAIL_LINES = 12;

export interface ApprovalChoice {
  label: string;
  /** Absent for "No, and tell the model…", which asks for a line of text first. */
  decision?: Decision;
}

/**
 * The choices for `request`, in order: yes once; always for the tool; always for the detail (only
 * when rememberable); always for the domain (only when the request names one); no; no with a message.
 */
export function approvalChoices(request: ApprovalRequest, displayName: string): ApprovalChoice[] {
  const choices: ApprovalChoice[] = [
    { label: 'Yes', decision: { kind: 'allow_once' } },
    { label: `Yes, always for ${displayName}`, decision: { kind: 'allow_tool' } },
  ];
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

export interface ApprovalPromptProps {
  request: ApprovalRequest;
  displayName: string;
  onDecision: (decision: Decision) => void;
}

/**
 * Asks whether a tool call may run. Keys: ↑/↓ and Enter, the digits, `y` (yes once), `n` and Esc
 * (no). The last choice opens a one-line input whose text goes back to the model with the refusal.
 */
export function ApprovalPrompt({ request, displayName, onDecision }: ApprovalPromptProps) {
  const theme = useTheme();
  const choices = approvalChoices(request, displayName);
  const [selected, setSelectedState] = useState(0);
  const [message, setMessageState] = useState<string | undefined>(undefined);
  // Refs hold the truth between renders, so keys that arrive together each see the last one's effect.
  const current = useRef({
    selected: 0,
    message: undefined as string | undefined,
    answered: false,
    pasting: false,
  });
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
  // One line of text: a paste's line breaks become spaces.
  const withoutBreaks = (text: string) => text.replace(/[\r\n]+/g, ' ');

  useKeys((input, key) => {
    const c = current.current;
    const { selected: sel, message: msg } = c;
    if (input === PASTE_START || input === PASTE_END) {
      c.pasting = input === PASTE_START;
      return;
    }
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
    if (key.escape || input === 'n' || input === 'N' || (key.ctrl && input === 'c')) decide({ kind: 'deny' });
    else if (input === 'y' || input === 'Y') decide({ kind: 'allow_once' });
    else if (key.upArrow) setSelected((sel + choices.length - 1) % choices.length);
    else if (key.downArrow || key.tab) setSelected((sel + 1) % choices.length);
    else if (key.return) choose(sel);
    else if (/^[1-9]$/.test(input)) choose(Number(input) - 1);
  });

  const detail = splitLines(request.detail);
  const hidden = detail.length - MAX_DETAIL_LINES;
  // The change an edit or a write would make, when the tool gave one: the person sees it first.
  const p = request.preview;
  const change =
    p && typeof p.after === 'string'
      ? { before: typeof p.before === 'string' ? p.before : '', after: p.after }
      : undefined;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.warning} paddingX={1}>
      <Text>
        <Text bold>{displayName}</Text>
        {request.summary ? <Text>{`: ${request.summary}`}</Text> : null}
      </Text>
      {detail.length > 0 ? (
        <Box flexDirection="column" paddingLeft={2} marginY={1}>
          {detail.slice(0, MAX_DETAIL_LINES).map((line, i) => (
            <Text key={i} color={theme.accent}>
              {line || ' '}
            </Text>
          ))}
          {hidden > 0 ? <Text color={theme.muted}>{`… +${hidden} lines`}</Text> : null}
        </Box>
      ) : null}
      {change ? (
        <Box marginBottom={1}>
          <FileDiff before={change.before} after={change.after} />
        </Box>
      ) : null}
      <Text>Allow this?</Text>
      {choices.map((c, i) => (
        <Text key={i} color={i === selected ? theme.accent : undefined} bold={i === selected}>
          {`${i === selected ? '❯' : ' '} ${i + 1}. ${c.label}`}
        </Text>
      ))}
      {message !== undefined ? (
        <Box marginTop={1}>
          <Text>{'Tell the model: '}</Text>
          <Text>{message}</Text>
          <Text inverse> </Text>
        </Box>
      ) : null}
      <Text color={theme.muted}>
        {message !== undefined
          ? 'Enter send · Esc back'
          : `↑↓ Enter · 1-${choices.length} · y yes · n or Esc no`}
      </Text>
    </Box>
  );
}

import { Text } from 'ink';
import { forTerminal } from '../../util/terminal-text';
import { formatElapsed, formatTokens, spinnerFrame } from '../text/format';
import { useTheme } from '../widgets/theme';
import { useNow } from '../widgets/use-now';
import type { TranscriptState } from './transcript-types';
import { workingTokens } from './working';

export interface WorkingLineProps {
  /** The model being waited for, e.g. `claude-opus-4-8`. */
  model: string;
  /** ms since the epoch since when nothing arrived from the model (`TranscriptState.waitingSince`). */
  waitingSince?: number;
  working?: TranscriptState['working'];
  usage?: TranscriptState['usage'];
}

/** Whole seconds (`0s`, `12s`), then `1m 05s`. */
function seconds(ms: number): string {
  return ms < 60_000 ? `${Math.floor(Math.max(0, ms) / 1000)}s` : formatElapsed(ms);
}

/**
 * The one sign of work, one row, for as long as a turn or a `!cmd` runs:
 * `⠋ Waiting for MODEL… 2s · esc to interrupt` until something arrives, then
 * `⠋ Working… 12s · ↓ 1.2k tokens · esc to interrupt` (pauses, tools and approvals included), and
 * `⠋ Running !sleep 5… 3s · esc to interrupt` for the person's own command. Renders nothing when
 * idle.
 */
export function WorkingLine({ model, waitingSince, working, usage }: WorkingLineProps) {
  const theme = useTheme();
  // Once a second: each redraw while a terminal is resized may be read after the terminal reflowed
  // its lines for the new width, and leave a torn copy of the frame in the scrollback.
  const now = useNow(waitingSince !== undefined || working !== undefined, 1000);
  if (waitingSince === undefined && !working) return null;
  const parts: string[] = [];
  let label: string;
  if (working?.command !== undefined) {
    label = `Running !${forTerminal(working.command).replace(/\s+/g, ' ')}…`;
    parts.push(seconds(now - working.since));
  } else if (waitingSince !== undefined) {
    label = `Waiting for ${model}…`;
    parts.push(seconds(now - waitingSince));
  } else {
    label = 'Working…';
    parts.push(seconds(now - working!.since));
  }
  const tokens = working && working.command === undefined ? workingTokens(working, usage) : 0;
  if (tokens > 0) parts.push(`↓ ${formatTokens(tokens)} tokens`);
  if (working) parts.push('esc to interrupt');
  return (
    <Text wrap="truncate-end">
      <Text color={theme.accent}>{`${spinnerFrame(now, 1000)} `}</Text>
      <Text>{label}</Text>
      <Text dimColor>{` ${parts.join(' · ')}`}</Text>
    </Text>
  );
}

import { Box, Text } from 'ink';
import type { ToolDisplay } from '../../../agent/events';
import type { ToolItem } from '../transcript-state';
import { ResultLines } from './ResultLines';
import { headerProps, ToolHeader } from './ToolHeader';
import { ToolStatusLines } from './ToolStatusLines';
import { useTheme } from '../../widgets/theme';

/** Lines of output kept from the end. */
const TAIL_LINES = 8;

/**
 * `output` without the tool's own `exit code N` line for the model (its last such line): the view
 * shows the exit code on a line of its own.
 */
function withoutExitNote(output: string, exitCode: number | undefined): string {
  if (exitCode === undefined || exitCode === 0) return output;
  const lines = output.split('\n');
  const at = lines.lastIndexOf(`exit code ${exitCode}`);
  return at <= 0 ? output : [...lines.slice(0, at), ...lines.slice(at + 1)].join('\n');
}

/**
 * A `shell` display: `Name(command)`, then the tail of the output and the exit code. `shell` is
 * absent while the call runs (the command is then the call's detail). While it runs, and after an
 * interrupt, the tail of what it printed so far.
 */
export function ShellView({
  item,
  shell,
}: {
  item: ToolItem;
  shell?: Extract<ToolDisplay, { kind: 'shell' }>;
}) {
  const theme = useTheme();
  const exitCode = typeof shell?.exitCode === 'number' ? shell.exitCode : undefined;
  const finished = item.status === 'done' || item.status === 'error';
  const failed = item.status === 'error' || (exitCode !== undefined && exitCode !== 0);
  return (
    <Box flexDirection="column">
      <ToolHeader {...headerProps(item)} detail={shell?.command ?? item.detail} />
      <ToolStatusLines item={item} />
      {(item.status === 'running' || item.status === 'interrupted') && item.progress ? (
        <ResultLines text={item.progress} tail dim={item.status === 'running'} max={TAIL_LINES} />
      ) : null}
      {finished ? (
        <ResultLines
          text={withoutExitNote(item.output ?? '', exitCode)}
          tail
          max={TAIL_LINES}
          color={item.status === 'error' ? theme.error : undefined}
        />
      ) : null}
      {finished && exitCode !== undefined ? (
        <Text color={failed ? theme.error : theme.muted}>{`    exit ${exitCode}`}</Text>
      ) : null}
    </Box>
  );
}

import { Box, Text } from 'ink';
import { FileDiff } from '../../widgets/FileDiff';
import { splitLines } from '../../../util/text';
import type { Item } from '../transcript-state';
import { useTheme } from '../../widgets/theme';
import { diffLines, toHunks } from '../../text/diff';
import { EXPAND_HINT } from '../../terminal/viewer-keys';

type PreviewItem = Extract<Item, { kind: 'preview' }>;

/**
 * Rows of a preview printed into the transcript: the detail's lines and the diff's each get this
 * many; a longer preview opens in the Ctrl+O viewer, which pages through all of it.
 */
export const PREVIEW_MAX_ROWS = 200;

/**
 * Whether a preview drawn whole takes more than `max` rows: its detail's lines and its diff's (hunks
 * and the gaps between). The diff is only computed when the line counts alone could exceed `max`
 * (a diff never has more rows than the two sides have lines).
 */
export function previewLongerThan(
  p: { detail: string; before?: string; after?: string },
  max: number,
): boolean {
  const lines = (text: string) => (text === '' ? 0 : splitLines(text).length);
  const detail = lines(p.detail);
  if (p.after === undefined) return detail > max;
  if (detail + lines(p.before ?? '') + lines(p.after) <= max) return false;
  const hunks = toHunks(diffLines(p.before ?? '', p.after));
  return detail + hunks.reduce((n, h) => n + h.lines.length, Math.max(0, hunks.length - 1)) > max;
}

/**
 * An approval's whole preview, asked for with "d": the header, the detail lines and the diff, each
 * up to {@link PREVIEW_MAX_ROWS} rows (a longer one is also shown in the viewer, and says so).
 */
export function PreviewView({ item }: { item: PreviewItem }) {
  const theme = useTheme();
  const detail = splitLines(item.detail);
  const shown = detail.slice(0, PREVIEW_MAX_ROWS);
  const more = ` (${EXPAND_HINT} to see all)`;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{item.title}</Text>
        <Text color={theme.muted}>{' (in full, for the prompt below)'}</Text>
      </Text>
      {shown.length > 0 ? (
        <Box flexDirection="column" paddingLeft={2}>
          {shown.map((line, i) => (
            <Text key={i} color={theme.accent}>
              {line || ' '}
            </Text>
          ))}
          {detail.length > shown.length ? (
            <Text color={theme.muted}>{`… +${detail.length - shown.length} more lines${more}`}</Text>
          ) : null}
        </Box>
      ) : null}
      {item.after !== undefined ? (
        <FileDiff before={item.before ?? ''} after={item.after} maxRows={PREVIEW_MAX_ROWS} moreHint={more} />
      ) : null}
    </Box>
  );
}

import { Box, Text } from 'ink';
import { imageLabel } from '../../../util/images';
import type { ToolItem } from '../transcript-state';
import { headerProps, ToolHeader } from './ToolHeader';
import { useTheme } from '../../widgets/theme';

type ImageDisplay = Extract<NonNullable<ToolItem['display']>, { kind: 'image' }>;

/**
 * An image the model was given (display kind `image`): the call, then one line,
 * `[image 1280×720, 212 kB]` (the size in bytes alone when the pixels are not known).
 */
export function ImageView({ item, image }: { item: ToolItem; image: ImageDisplay }) {
  const theme = useTheme();
  const label =
    image.width !== undefined && image.height !== undefined
      ? imageLabel({ width: image.width, height: image.height, bytes: image.bytes })
      : `[image ${image.mediaType}, ${image.bytes} bytes]`;
  return (
    <Box flexDirection="column">
      <ToolHeader {...headerProps(item)} />
      <Text color={theme.muted}>{`  ⎿ ${label}`}</Text>
    </Box>
  );
}

import { Box, Static } from 'ink';
import { memo } from 'react';
import type { Item } from './transcript-state';
import { TranscriptItem } from './TranscriptItem';

/** Finished items: printed once by `<Static>` and never laid out again. */
const Done = memo(function Done({ items }: { items: Item[] }) {
  return <Static items={items}>{(item) => <TranscriptItem key={item.key} item={item} />}</Static>;
});

/** The conversation: finished items above, the live ones (streaming text, running tools) below. */
export function Transcript({ done, live }: { done: Item[]; live: Item[] }) {
  return (
    <>
      <Done items={done} />
      {live.length > 0 ? (
        <Box flexDirection="column">
          {live.map((item) => (
            <TranscriptItem key={item.key} item={item} />
          ))}
        </Box>
      ) : null}
    </>
  );
}

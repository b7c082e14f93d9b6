/**
 * The `@` file picker's state beside the input: the highlight and an Esc-closed `@` word, kept in a
 * ref so keys that arrive in one read each see the previous one's effect.
 */
import { useEffect, useReducer, useRef } from 'react';
import type { FileSource } from '../../util/shapes';
import type { InputAction } from '../terminal/input-keys';
import { fileMatches, mentionAt, moveFile, pickFile, type Mention } from './file-pick';
import type { InputState } from './input-state';

/** What the list under the input shows while the picker is open. */
export interface ShownFiles {
  matches: readonly string[];
  selected: number;
  loading: boolean;
  found: number;
}

export interface FilePicker {
  /**
   * A key while the picker is open: Tab / Enter give the text with the highlighted file inserted,
   * ↑ / ↓ move the highlight and Esc closes the list (`true`: taken, the text unchanged). Undefined:
   * the picker is closed, or has nothing to do with this key (Enter with no file listed sends).
   */
  act(action: InputAction, state: InputState): InputState | true | undefined;
  /** After every change of the text: the highlight starts afresh. */
  changed(next: InputState): void;
  /** The list to show for `state`; undefined while the picker is closed. */
  shown: ShownFiles | undefined;
}

/**
 * The picker over `files` for the input's `state`; `active` false (another prompt has the keys)
 * closes it. The files are walked when it first opens, and again on an opening after the source
 * went stale (see {@link FileSource.refresh}).
 */
export function useFilePicker(files: FileSource | undefined, state: InputState, active: boolean): FilePicker {
  const ref = useRef({
    index: 0,
    closedAt: undefined as number | undefined,
    ranked: undefined as { query: string; paths: readonly string[]; matches: string[] } | undefined,
  });
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  useEffect(() => files?.watch(redraw), [files]);

  const open = (s: InputState): Mention | undefined => {
    if (!files) return undefined;
    const m = mentionAt(s.value, s.cursor);
    return m && m.start !== ref.current.closedAt ? m : undefined;
  };
  /** Ranking a large tree is the costly part: once per query and list. */
  const matchesOf = (m: Mention): string[] => {
    const r = ref.current;
    const paths = files?.paths ?? [];
    if (r.ranked?.query !== m.query || r.ranked.paths !== paths)
      r.ranked = { query: m.query, paths, matches: fileMatches(m, paths) };
    return r.ranked.matches;
  };

  const mention = active ? open(state) : undefined;
  const opened = mention !== undefined;
  useEffect(() => {
    if (opened) files?.refresh();
  }, [opened, files]);

  const act = (action: InputAction, s: InputState): InputState | true | undefined => {
    const m = open(s);
    if (!m) return undefined;
    const r = ref.current;
    const listed = matchesOf(m);
    switch (action) {
      case 'complete':
      case 'submit':
        return listed.length > 0
          ? pickFile(s.value, m, listed[Math.min(r.index, listed.length - 1)])
          : undefined;
      case 'up':
      case 'down':
        if (listed.length === 0) return undefined;
        r.index = moveFile(Math.min(r.index, listed.length - 1), listed.length, action === 'up' ? -1 : 1);
        redraw();
        return true;
      case 'interrupt':
        r.closedAt = m.start;
        redraw();
        return true;
      default:
        return undefined;
    }
  };

  const changed = (next: InputState) => {
    const r = ref.current;
    r.index = 0;
    if (mentionAt(next.value, next.cursor)?.start !== r.closedAt) r.closedAt = undefined;
  };

  const shown = mention && {
    matches: matchesOf(mention),
    selected: Math.min(ref.current.index, Math.max(0, matchesOf(mention).length - 1)),
    loading: files!.loading,
    found: files!.paths.length,
  };
  return { act, changed, shown };
}

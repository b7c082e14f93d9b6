/**
 * The `@` file picker as pure functions of the text, the cursor and the workspace's files: the
 * `@` word being typed, the files it lists, and the text once one is picked. PromptInput keeps the
 * highlight and maps keys to these.
 */
import { rankPaths } from '../../util/fuzzy';

/** Most files the picker lists. */
export const MAX_FILE_ROWS = 8;

/**
 * The `@` word at the cursor: it starts at `start` (the `@`, at the start of the text or after
 * white space) and ends at `end` (the white space after the cursor, or the end); `query` is what
 * was typed between the `@` and the cursor, `\ ` read as a space, as `atReferences` reads it.
 */
export interface Mention {
  start: number;
  end: number;
  query: string;
}

/** Whether the character at `i` of `value` is white space that ends a word (`\ ` does not). */
const endsWord = (value: string, i: number) => /\s/.test(value[i]) && value[i - 1] !== '\\';

/** The {@link Mention} the cursor is in, or undefined when it is in no `@` word. */
export function mentionAt(value: string, cursor: number): Mention | undefined {
  let start = cursor;
  while (start > 0 && !endsWord(value, start - 1)) start--;
  if (value[start] !== '@' || start === cursor) return undefined;
  let end = cursor;
  while (end < value.length && !endsWord(value, end)) end++;
  return { start, end, query: value.slice(start + 1, cursor).replace(/\\ /g, ' ') };
}

/** The files listed for `mention`, best first: at most {@link MAX_FILE_ROWS}. */
export function fileMatches(mention: Mention, paths: readonly string[]): string[] {
  return rankPaths(mention.query, paths, MAX_FILE_ROWS);
}

/**
 * The text with `mention` replaced by `@path ` (spaces in the path written `\ `), and the cursor
 * after it. A folder (`src/`) the `@` word does not name yet goes in without the space, so that the
 * list goes on with what is inside it; picked again, it is done.
 */
export function pickFile(value: string, mention: Mention, path: string): { value: string; cursor: number } {
  const into = path.endsWith('/') && mention.query !== path;
  const inserted = `@${path.replace(/ /g, '\\ ')}${into ? '' : ' '}`;
  const rest = into ? value.slice(mention.end) : value.slice(mention.end).replace(/^ /, '');
  return { value: value.slice(0, mention.start) + inserted + rest, cursor: mention.start + inserted.length };
}

/** ↑ (-1) / ↓ (1): the highlight after moving it among `count` listed files, wrapping round. */
export function moveFile(index: number, count: number, step: 1 | -1): number {
  return count === 0 ? 0 : (index + step + count) % count;
}

/**
 * Which version of a file this session last saw (read_file, edit_file, write_file), kept in the
 * session's `ToolState`; the versions themselves are src/util/file-version.
 */
import type { FileVersion } from '../util/file-version';
import type { ToolState } from './tool';

const key = (abs: string): string => `file-version:${abs}`;

/**
 * The version of `abs` this session last read or wrote (read_file, edit_file, write_file), or
 * undefined when it has not seen the file. Kept in `state.memo`.
 */
export function seenVersion(state: ToolState, abs: string): FileVersion | undefined {
  return state.memo.get(key(abs)) as FileVersion | undefined;
}

/** Remember that this session has seen `abs` as `version`. */
export function recordVersion(state: ToolState, abs: string, version: FileVersion): void {
  state.memo.set(key(abs), version);
}

/**
 * The slash-command list under the input as pure functions of the text, the highlight and the
 * registry: what it lists, what Tab makes of the text, where ↑/↓ move the highlight, what Enter
 * sends. PromptInput keeps the state and maps keys to these.
 */
import { completeCommand, matchCommands, type CommandSpec } from './commands';

/**
 * The highlight: the commands matching `base` (what was typed before Tab started cycling) are
 * listed, `index` is the highlighted one. Absent: the commands matching the text, the first one
 * highlighted.
 */
export interface CommandPick {
  base: string;
  index: number;
}

/** The commands listed under `value` with `pick`, and the highlighted one's index. */
export function listedCommands(
  value: string,
  pick: CommandPick | undefined,
  commands: readonly CommandSpec[],
): { base: string; matches: CommandSpec[]; index: number } {
  const base = pick?.base ?? value;
  const matches = matchCommands(base, commands);
  return { base, matches, index: Math.min(pick?.index ?? 0, Math.max(0, matches.length - 1)) };
}

/**
 * Tab: the text extended to the longest common prefix of the matching commands (the whole name,
 * and a space when it takes arguments, when one matches); when there is nothing to extend, the
 * highlighted command, the highlight then moving to the next, so Tab again cycles through the list.
 * Undefined: nothing to complete (not a command, or the one match is already there).
 */
export function tabCompletion(
  value: string,
  pick: CommandPick | undefined,
  commands: readonly CommandSpec[],
): { value: string; pick?: CommandPick } | undefined {
  const { base, matches, index } = listedCommands(value, pick, commands);
  if (matches.length === 0) return undefined;
  const completed = pick ? undefined : completeCommand(value, commands);
  if (completed !== undefined) return { value: completed };
  if (matches.length === 1) return undefined;
  const next = (pick && value === matches[index].name ? index + 1 : index) % matches.length;
  return { value: matches[next].name, pick: { base, index: next } };
}

/** ↑ (-1) / ↓ (1) in the list: the new highlight; undefined when fewer than two are listed. */
export function movePick(
  value: string,
  pick: CommandPick | undefined,
  commands: readonly CommandSpec[],
  step: 1 | -1,
): CommandPick | undefined {
  const { base, matches, index } = listedCommands(value, pick, commands);
  const n = matches.length;
  return n > 1 ? { base, index: (index + step + n) % n } : undefined;
}

/**
 * What Enter does: with the text only the start of several names, a highlight the person moved
 * (↑/↓, Tab) is run; one they did not is filled in (`/c` Enter gives `/clear`, highlighted, and a
 * second Enter runs it), so an ambiguous prefix never runs a command by chance. Else the text is sent.
 */
export function enterLine(
  value: string,
  pick: CommandPick | undefined,
  commands: readonly CommandSpec[],
): { send: string } | { fill: { value: string; pick: CommandPick } } {
  const { base, matches, index } = listedCommands(value, pick, commands);
  const several = matches.length > 1 && !matches.some((m) => m.name === value.toLowerCase());
  if (!several) return { send: value };
  if (pick) return { send: matches[index].name };
  return { fill: { value: matches[index].name, pick: { base, index } } };
}

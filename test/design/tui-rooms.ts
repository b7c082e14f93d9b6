/**
 * The room rule inside `src/tui` (DESIGN.md, "Layers and the import rule"): `text/`, `terminal/`
 * and `widgets/` import only each other (and `src/util`, which the layer table checks); every
 * other room imports those three, itself and the rooms its row names; only `app/` imports every
 * room, and no room imports `app/` (only `src/cli` does). Every file of `src/tui` lives in a room.
 */

/** The rooms every room may import. */
const LEAVES = ['text', 'terminal', 'widgets'];

/** Each room and the rooms besides itself and {@link LEAVES} it may import; `app` may import all. */
export const ROOMS: Record<string, string[]> = {
  text: [],
  terminal: [],
  widgets: [],
  transcript: [],
  // The viewer shows a transcript item in full.
  viewer: ['transcript'],
  // /model offers the wizard's model choices.
  commands: ['wizard'],
  // The input completes and picks commands.
  input: ['commands'],
  approval: [],
  wizard: [],
  app: [],
};

/** `src/tui/transcript/tools/ToolCall.tsx` → `transcript`; undefined outside `src/tui`. */
export function roomOf(srcPath: string): string | undefined {
  const parts = srcPath.split('/');
  if (parts[0] !== 'tui') return undefined;
  return parts.length > 2 ? parts[1] : '';
}

/**
 * What breaks the room rule in one import, `from` and `to` given relative to `src`
 * (`tui/input/PromptInput.tsx`, `tui/text/format.ts`); undefined when it is allowed or not inside
 * the TUI.
 */
export function roomProblem(from: string, to: string): string | undefined {
  const fromRoom = roomOf(from);
  const toRoom = roomOf(to);
  if (fromRoom === undefined) return undefined;
  if (!(fromRoom in ROOMS)) return `${from} is in no room of the TUI`;
  if (toRoom === undefined) {
    const layer = to.split('/')[0];
    return LEAVES.includes(fromRoom) && layer !== 'util'
      ? `${fromRoom}/ imports only text/, terminal/, widgets/ and util (${from} imports ${to})`
      : undefined;
  }
  if (toRoom === fromRoom || fromRoom === 'app') return undefined;
  if (!(toRoom in ROOMS)) return `${to} is in no room of the TUI`;
  if (toRoom === 'app') return `only src/cli imports app/ (${from} imports ${to})`;
  if (LEAVES.includes(fromRoom) && !LEAVES.includes(toRoom))
    return `${fromRoom}/ imports only text/, terminal/, widgets/ and util (${from} imports ${to})`;
  if (!LEAVES.includes(toRoom) && !ROOMS[fromRoom].includes(toRoom))
    return `${fromRoom}/ may not import ${toRoom}/ (${from} imports ${to})`;
  return undefined;
}

import { Box, Text, type Key } from 'ink';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import * as edit from './input-state';
import { CommandList } from '../commands/CommandList';
import { COMMANDS, type CommandSpec } from '../commands/commands';
import {
  enterLine,
  listedCommands,
  movePick,
  tabCompletion,
  type CommandPick,
} from '../commands/command-pick';
import { useTheme } from '../widgets/theme';
import { PASTE_END, PASTE_START, endsWithEnter, useKeys } from '../terminal/keys';
import { inputAction, type InputAction } from '../terminal/input-keys';
import { EDIT_ACTIONS } from './edit-actions';
import { PastedTexts } from './pasted-texts';
import { imagePathOf } from './pasted-path';
import { searchStep, type HistorySearch, type SearchStep } from './history-search';
import { SearchLine } from './SearchLine';
import { InputBox, textRowsOf } from './InputBox';
import { FileList } from './FileList';
import { useFilePicker } from './use-file-picker';
import type { FileSource } from '../../util/shapes';
import { pasteText } from '../terminal/key-chunks';

/** A second Ctrl+C within this many ms, with the input empty, quits. */
const EXIT_WINDOW_MS = 1000;
/** A second Esc within this many ms, on an empty input between turns, opens `/rewind`. */
const REWIND_WINDOW_MS = 800;

export interface PromptInputProps {
  /** False while another prompt has the keys; the draft is kept. */
  active: boolean;
  /** A turn is running (for the placeholder; `onSubmit` decides whether the text waits). */
  busy: boolean;
  /** Older entries first. */
  history: readonly string[];
  /** Sends the text, or queues it while a turn runs; the input is cleared either way. */
  onSubmit: (text: string) => void;
  /** How many messages wait for the running turn (for the placeholder). */
  queued?: number;
  /** ↑ on an empty input: the newest queued message, taken back for editing; undefined: none. */
  onUnqueue?: () => string | undefined;
  /** Queued text handed back (a new `id` each time): put before what the input holds, `why` shown. */
  restore?: { id: number; text: string; why: string };
  /** Esc, or Ctrl+C on an empty input: interrupts the running turn, if any. */
  onInterrupt: () => void;
  /** Esc twice on an empty input between turns (see {@link REWIND_WINDOW_MS}). */
  onRewind?: () => void;
  onExit: () => void;
  /** The session's command registry, for Tab completion and the list under the input; default the built-ins. */
  commands?: readonly CommandSpec[];
  /** Ctrl+L: a clean screen (what was on it kept in the scrollback), the live part drawn again. */
  onRedraw: () => void;
  /** After Ctrl+G's editor returns: draw the live part again, clearing nothing. */
  onRepaint?: () => void;
  /** Ctrl+G: the text edited in the person's editor (see `Controller.editText`). */
  onEdit?: (text: string) => { text: string } | { error: string };
  /** The terminal's width in cells, for {@link onTextRows}; default 80. */
  columns?: number;
  /**
   * Told, as the text changes (in the same render), how many rows the text inside the box may draw
   * ({@link textRowsOf}), so the app can keep the frame shorter than the terminal before the box is
   * measured.
   */
  onTextRows?: (rows: number) => void;
  /** Rows the command list under the input may take (default: no limit). */
  maxListRows?: number;
  /** Ctrl+O: open the viewer; returns a hint to show when there is nothing to open. */
  onExpand?: () => string | undefined;
  /** Shift+Tab: the next permission mode. Absent: the key does nothing. */
  onCycleMode?: () => void;
  /** Ctrl+V: an image from the clipboard for the next message; resolves with the line to show. */
  onPasteImage?: () => Promise<string>;
  /** A paste that is an image file's path: attaches it (see `Controller.attachImageFile`). */
  onPasteImagePath?: (path: string) => Promise<{ attached: boolean; line: string } | undefined>;
  /** The workspace's files, for the list an `@` word opens under the input. Absent: no list. */
  files?: FileSource;
  /** The images waiting for the next message (read at each render): one line under the box. */
  attachments?: () => readonly string[];
}

/**
 * The multi-line input: Enter sends (queues, while a turn runs); a trailing `\`, Shift+Enter,
 * Alt+Enter or Ctrl+J starts a new line; Up/Down move between lines, then (after taking back the
 * newest queued message, on an empty input) through history; a paste is inserted whole (one of
 * more than 10 lines as a placeholder, sent as the whole text: ./pasted-texts.ts).
 */
export function PromptInput({
  active,
  busy,
  history,
  onSubmit,
  queued = 0,
  onUnqueue,
  restore,
  onInterrupt,
  onRewind,
  onExit,
  commands = COMMANDS,
  onRedraw,
  onRepaint,
  onEdit,
  columns = 80,
  onTextRows,
  maxListRows,
  onExpand,
  onCycleMode,
  files,
  onPasteImage,
  onPasteImagePath,
  attachments,
}: PromptInputProps) {
  const theme = useTheme();
  const [state, setState] = useState<edit.InputState>(edit.emptyInput);
  const [armed, setArmedState] = useState(false);
  const [hint, setHint] = useState('');
  // The truth between renders: keys that arrive together each see the previous one's edit.
  const cur = useRef({
    input: edit.emptyInput,
    histIndex: undefined as number | undefined,
    draft: '',
    pasting: false,
    /** The bracketed paste read so far. */
    pasted: '',
    pastes: new PastedTexts(),
    armed: false,
    ctrlCAt: 0,
    escAt: 0,
    search: undefined as HistorySearch | undefined,
    pick: undefined as CommandPick | undefined,
  });
  const [pick, setPickState] = useState<CommandPick | undefined>(undefined);
  const filePicker = useFilePicker(files, state, active);
  const [search, setSearchState] = useState<HistorySearch | undefined>(undefined);
  const setSearch = (next: HistorySearch | undefined) => {
    cur.current.search = next;
    setSearchState(next);
  };

  const setArmed = (on: boolean) => {
    cur.current.armed = on;
    setArmedState(on);
  };

  const [leaving, setLeaving] = useState(false);
  useEffect(() => {
    if (leaving) onExit();
  }, [leaving, onExit]);

  useEffect(() => {
    if (!armed) return;
    const timer = setTimeout(() => setArmed(false), EXIT_WINDOW_MS);
    return () => clearTimeout(timer);
  }, [armed]);

  /** Sets the input; the command list's highlight starts afresh unless `keep` is given. */
  const set = (next: edit.InputState, keep?: CommandPick) => {
    cur.current.input = next;
    cur.current.pick = keep;
    filePicker.changed(next);
    setState(next);
    setPickState(keep);
    setHint('');
    onTextRows?.(textRowsOf(next, columns));
  };

  // Queued text that came back goes first: it was typed before what the input holds now.
  const restored = useRef(0);
  useLayoutEffect(() => {
    if (!restore || restore.id === restored.current) return;
    restored.current = restore.id;
    const draft = cur.current.input.value;
    cur.current.histIndex = undefined;
    set(edit.inputOf(draft.trim() ? `${restore.text}\n\n${draft}` : restore.text));
    setHint(restore.why);
  }, [restore]);

  const submit = (value: string) => {
    if (value.trim() === '') return;
    onSubmit(cur.current.pastes.expand(value).trim());
    cur.current.pastes.clear();
    set(edit.emptyInput);
    cur.current.histIndex = undefined;
    cur.current.draft = '';
  };

  const browse = (direction: -1 | 1) => {
    const c = cur.current;
    if (history.length === 0) return;
    if (direction === -1) {
      const next = c.histIndex === undefined ? history.length - 1 : Math.max(0, c.histIndex - 1);
      if (c.histIndex === undefined) c.draft = c.input.value;
      c.histIndex = next;
      set(edit.inputOf(history[next]));
    } else if (c.histIndex !== undefined) {
      const next = c.histIndex + 1;
      if (next >= history.length) {
        c.histIndex = undefined;
        set(edit.inputOf(c.draft));
      } else {
        c.histIndex = next;
        set(edit.inputOf(history[next]));
      }
    }
  };

  const onSearch = (step: SearchStep) => {
    if (step.kind === 'search') return setSearch(step.search);
    setSearch(undefined);
    if (step.kind === 'take' && step.index !== undefined) {
      cur.current.histIndex = undefined;
      set(edit.inputOf(history[step.index]));
    }
  };

  /** Ctrl+C: clears the text; on an empty input interrupts a turn; twice at an idle prompt quits. */
  const cancel = (state: edit.InputState) => {
    const c = cur.current;
    const now = Date.now();
    const again = c.armed && now - c.ctrlCAt <= EXIT_WINDOW_MS;
    if (state.value !== '') {
      c.pastes.clear();
      set(edit.emptyInput);
    } else if (busy) {
      setArmed(false);
      return onInterrupt();
    } else if (again) {
      // The last frame stays on the terminal: quit once it is drawn without the "again" line.
      setArmed(false);
      setLeaving(true);
      return;
    }
    c.ctrlCAt = now;
    setArmed(!busy);
  };

  /** Carries out what the key table says a key means. */
  const act = (action: InputAction, state: edit.InputState) => {
    const c = cur.current;
    const edited = EDIT_ACTIONS[action];
    if (edited) return set(edited(state));
    // While the `@` list shows, Tab, Enter, ↑, ↓ and Esc are its keys.
    const picked = filePicker.act(action, state);
    if (picked === true) return;
    if (picked) return set(picked);
    switch (action) {
      case 'expand': {
        const why = onExpand?.();
        if (why) setHint(why);
        return;
      }
      case 'search':
        return setSearch({ query: '', match: undefined });
      case 'cycle-mode':
        return onCycleMode?.();
      case 'redraw':
        return onRedraw();
      case 'edit': {
        if (!onEdit) return;
        const result = onEdit(c.pastes.expand(state.value));
        // The editor drew over the screen (most use the alternate screen, which leaves it as it was).
        onRepaint?.();
        if ('text' in result) set(edit.inputOf(pasteText(result.text)));
        else setHint(result.error);
        return;
      }
      case 'paste-image':
        if (onPasteImage) void onPasteImage().then(setHint);
        return;
      case 'cancel':
        return cancel(state);
      case 'interrupt': {
        const now = Date.now();
        const twice = !busy && state.value === '' && now - c.escAt <= REWIND_WINDOW_MS;
        c.escAt = twice ? 0 : now;
        if (twice && onRewind) return onRewind();
        return onInterrupt();
      }
      case 'newline':
        return set(edit.insert(state, '\n'));
      case 'submit': {
        if (state.value[state.cursor - 1] === '\\') return set(edit.insert(edit.backspace(state), '\n'));
        const enter = enterLine(state.value, c.pick, commands);
        if ('send' in enter) return submit(enter.send);
        return set(edit.inputOf(enter.fill.value), enter.fill.pick);
      }
      case 'complete': {
        // A typed Tab completes a slash command and does nothing elsewhere; a pasted tab is text.
        const done = tabCompletion(state.value, c.pick, commands);
        if (done) set(edit.inputOf(done.value), done.pick);
        return;
      }
      case 'up':
      case 'down': {
        const up = action === 'up';
        const picked = movePick(state.value, c.pick, commands, up ? -1 : 1);
        if (picked) return set(state, picked);
        const moved = up ? edit.up(state) : edit.down(state);
        if (moved) return set(moved);
        // An empty input takes the newest queued message back before it reaches the history.
        const back = up && state.value === '' && c.histIndex === undefined ? onUnqueue?.() : undefined;
        if (back !== undefined) set(edit.inputOf(back));
        else browse(up ? -1 : 1);
        return;
      }
      case 'quit-or-delete':
        if (state.value === '') onExit();
        else set(edit.deleteForward(state));
        return;
      default:
        return;
    }
  };

  const onKey = (input: string, key: Key) => {
    const c = cur.current;
    const state = c.input;
    if (input === PASTE_START) {
      c.pasting = true;
      c.pasted = '';
      return;
    }
    if (input === PASTE_END) {
      c.pasting = false;
      const text = c.pasted;
      c.pasted = '';
      // A dragged-in image file: attached instead of typed, when it is one.
      const path = onPasteImagePath ? imagePathOf(text) : undefined;
      if (path && onPasteImagePath)
        return void onPasteImagePath(path).then((got) => {
          if (got) setHint(got.line);
          if (!got?.attached) set(edit.insert(cur.current.input, c.pastes.add(text)));
        });
      return set(edit.insert(state, c.pastes.add(text)));
    }
    if (c.pasting) {
      c.pasted += key.return ? '\n' : key.tab ? '\t' : input;
      return;
    }
    const action = inputAction(input, key);
    // Ctrl+O opens the viewer even while searching.
    if (c.search && action !== 'expand') return onSearch(searchStep(c.search, input, key, history));
    if (action) return act(action, state);
    if (key.ctrl || key.meta || input === '') return;
    // Typed text that arrived in one read with its Enter ("ls\r"): send it. Any other chunk with line
    // breaks is a paste and goes in whole.
    if (endsWithEnter(input)) {
      const typed = edit.insert(state, input.slice(0, -1));
      const picked = filePicker.act('submit', typed);
      if (picked && picked !== true) return set(picked);
      // A trailing `\` before the Enter means "new line", as when the two keys come apart.
      if (typed.value[typed.cursor - 1] === '\\') set(edit.insert(edit.backspace(typed), '\n'));
      else submit(typed.value);
      return;
    }
    set(edit.insert(state, input.includes('\n') ? c.pastes.add(input) : input));
  };

  useKeys(onKey, active);

  return (
    <Box flexDirection="column">
      <InputBox state={state} active={active} busy={busy} queued={queued} />
      <AttachmentLine labels={attachments?.() ?? []} />
      {armed && !busy && state.value === '' ? (
        <Text color={theme.warning}>Press Ctrl+C again to exit</Text>
      ) : null}
      {hint ? <Text color={theme.muted}>{hint}</Text> : null}
      {search ? <SearchLine search={search} history={history} /> : null}
      {active && filePicker.shown ? (
        <FileList {...filePicker.shown} maxRows={maxListRows} />
      ) : active ? (
        <CommandList
          matches={listedCommands(state.value, pick, commands).matches}
          selected={listedCommands(state.value, pick, commands).index}
          maxRows={maxListRows}
        />
      ) : null}
    </Box>
  );
}

/** "with your next message: [image …] [image …] (/clear drops them)", or nothing. */
function AttachmentLine({ labels }: { labels: readonly string[] }) {
  const theme = useTheme();
  if (labels.length === 0) return null;
  const them = labels.length === 1 ? 'it' : 'them';
  return (
    <Text color={theme.muted}>{`with your next message: ${labels.join(' ')} (/clear drops ${them})`}</Text>
  );
}

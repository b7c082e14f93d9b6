import { Box, measureElement, useApp, useStdout, type DOMElement } from 'ink';
import { homedir } from 'node:os';
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import { nextMode } from '../../util/shapes';
import { plainScreen, type AltScreen } from '../terminal/alt-screen';
import type { Controller } from './controller';
import { ApprovalPrompt } from '../approval/ApprovalPrompt';
import { COMMANDS } from '../commands/commands';
import { PickChanges } from '../commands/PickChanges';
import { Picker } from '../widgets/Picker';
import { PromptInput } from '../input/PromptInput';
import { QueuedMessages } from '../input/QueuedMessages';
import { StatusLine } from './StatusLine';
import { Transcript } from '../transcript/Transcript';
import { Viewer } from '../viewer/Viewer';
import { isViewable } from '../viewer/viewer-page';
import { PREVIEW_MAX_ROWS, previewLongerThan } from '../transcript/tools/PreviewView';
import type { TerminalBackground } from '../terminal/background';
import { WorkingLine } from '../transcript/WorkingLine';
import { KeyRouterProvider, useKeyRouter } from '../terminal/keys';
import { ThemeContext, makeTheme } from '../widgets/theme';
import { useApproval } from '../approval/use-approval';
import { useHistory } from '../input/use-history';
import { useSession } from './use-session';
import { useTerminalSize } from '../terminal/use-terminal-size';
import { useFitScreen } from '../terminal/fit-screen';
import { useTranscript } from '../transcript/use-transcript';
import { queueLines, queueRowsFor } from '../input/queue';
import { usageSinceClear } from '../transcript/transcript-state';

/** Rows of the status line. */
const STATUS_ROWS = 2;
/** The input box and the status line before they were first measured. */
const BOTTOM_GUESS = 6;
/** The least a picker is given: its border, title, keys and two choices. */
const MIN_PICKER_ROWS = 6;
/** The least an approval prompt is given, however small the terminal. */
const MIN_PROMPT_ROWS = 8;
/** `viewing` for the latest approval preview (item keys start at 0). */
const PREVIEW = -1;
/** A row kept free for what grows in the same frame (the input box gaining a line). */
const LIVE_SLACK = 1;
/** Rows of a one-line input box and a hint line under it, which the command list leaves free. */
const INPUT_ROWS = 4;

export interface AppProps {
  controller: Controller;
  /** True when `NO_COLOR` is set: no colour codes at all. */
  noColor?: boolean;
  /** Home folder for `~` in the status line; default `os.homedir()`. */
  home?: string;
  /** A prompt given on the command line (`codey "fix the bug"`): submitted once, at start. */
  initialPrompt?: string;
  /** Told the frame's height in lines (the part below `<Static>`) after each render. */
  onFrameRows?: (rows: number) => void;
  /** The terminal, for its size (Ink's own stream hides `rows`: see ink-stdout.ts); default Ink's stdout. */
  terminal?: NodeJS.WriteStream;
  /**
   * Where the Ctrl+O viewer draws: the alternate screen, with Ink's output held back meanwhile
   * (`gatedScreen` in run.tsx). Default: the alternate screen on Ink's stdout, nothing held back.
   */
  screen?: AltScreen;
  /** The terminal's background as reported, for the `auto` theme (dark until it says). */
  background?: TerminalBackground;
}

/** Clears the screen and the scrollback and puts the cursor home, as `clear` does: `/clear` only. */
const CLEAR_ALL = '\u001B[2J\u001B[3J\u001B[H';
/** Puts the cursor at the top left of the screen. */
const CURSOR_HOME = '\u001B[H';

/** The interactive session: transcript, then the approval prompt or the input, then the status line. */
export function App({
  controller,
  noColor = false,
  home,
  initialPrompt,
  onFrameRows,
  terminal,
  screen,
  background,
}: AppProps) {
  const [shade, setShade] = useState(background?.shade);
  useEffect(() => background?.onChange(setShade), [background]);
  const themeName = controller.theme === 'auto' ? (shade ?? 'dark') : controller.theme;
  const theme = useMemo(() => makeTheme(themeName, noColor), [themeName, noColor]);
  const { exit } = useApp();
  const { state, dispatch } = useTranscript(controller);
  const approval = useApproval(controller);
  const history = useHistory(controller.historyFile, controller.secrets);
  const commands = controller.commands ?? COMMANDS;
  const session = useSession(controller, dispatch, history.add, exit, commands);
  const { stdout, write } = useStdout();
  const { columns, rows } = useTerminalSize(terminal);
  const altScreen = useMemo(() => screen ?? plainScreen(stdout), [screen, stdout]);
  // After `/clear` has emptied the transcript and its frame is drawn: clear the screen, scrollback
  // and cursor as `clear` does; Ink draws the (new) live part again below.
  useEffect(() => {
    if (state.clears) write(CLEAR_ALL);
  }, [state.clears, write]);
  // Ctrl+L, as a shell's: what is on screen scrolls up into the scrollback (every line of it kept),
  // and the live part is drawn again at the top of a clean screen. Ink erases its frame first and
  // draws it again after (its `write`), so a torn frame is repaired too.
  const redraw = useCallback(() => {
    write(`${'\n'.repeat(Number.isFinite(rows) ? rows : 0)}${CURSOR_HOME}`);
  }, [write, rows]);
  // After Ctrl+G's editor: draw the live part again where it was; nothing is cleared.
  const repaint = useCallback(() => write(''), [write]);
  // Shift+Tab: the next permission mode; the status line reads it from the controller.
  const [, modeChanged] = useReducer((n: number) => n + 1, 0);
  const cycleMode = useCallback(() => {
    controller.setMode(nextMode(controller.mode));
    modeChanged();
  }, [controller]);
  const homeDir = useMemo(() => home ?? homedir(), [home]);
  const keys = useKeyRouter();
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !initialPrompt?.trim()) return;
    started.current = true;
    session.submit(initialPrompt);
  }, [initialPrompt, session]);

  // The live part of the frame (below <Static>) stays shorter than the terminal: see live-rows.ts.
  const pending = approval.pending;
  // Ctrl+O: the key of the item the viewer opened on. An approval prompt closes it, except when
  // the prompt's own "d" opened it on a preview too long to print (PREVIEW: the latest preview).
  const [viewing, setViewing] = useState<number | undefined>(undefined);
  const viewable = useMemo(
    () => (viewing === undefined ? [] : [...state.done, ...state.live].filter(isViewable)),
    [viewing, state.done, state.live],
  );
  const viewingPreview = viewing === PREVIEW;
  const viewerOpen = viewing !== undefined && (!pending || viewingPreview);
  const viewerKey = viewingPreview ? viewable.findLast((i) => i.kind === 'preview')?.key : viewing;
  useEffect(() => {
    if (pending) setViewing(undefined);
  }, [pending]);
  // While a prompt asks, the call it asks about is not drawn above it: the prompt names the tool and
  // shows its input, and the header's second copy would take rows a narrowing terminal's reflow needs
  // (a frame that reflows taller than the screen leaves its top in the scrollback).
  const live = useMemo(
    () => (pending ? state.live.filter((i) => i.kind !== 'tool' || !i.awaitingApproval) : state.live),
    [pending, state.live],
  );
  const openViewer = useCallback(() => {
    const last = [...state.done, ...state.live].filter(isViewable).at(-1);
    if (!last) return 'Nothing to expand yet: Ctrl+O shows a tool output, thinking or subagent in full.';
    setViewing(last.key);
    return undefined;
  }, [state.done, state.live]);
  const bottom = useRef<DOMElement>(null);
  const prompt = useRef<DOMElement>(null);
  const root = useRef<DOMElement>(null);
  useFitScreen(root, rows, terminal);
  const [measured, setMeasured] = useState({ bottom: BOTTOM_GUESS, prompt: 0, promptId: -1, textRows: 1 });
  // The input's text rows as the input last reported them: ahead of `measured` for one render.
  const [textRows, setTextRows] = useState(1);
  useLayoutEffect(() => {
    if (root.current) onFrameRows?.(measureElement(root.current).height);
    // The hidden bottom measures 0 rows; kept at its last height, the frame after the viewer fits.
    if (viewerOpen) return;
    const next = {
      bottom: bottom.current ? measureElement(bottom.current).height : BOTTOM_GUESS,
      prompt: prompt.current ? measureElement(prompt.current).height : 0,
      promptId: pending?.id ?? -1,
      textRows,
    };
    if (
      next.bottom !== measured.bottom ||
      next.prompt !== measured.prompt ||
      next.promptId !== measured.promptId ||
      next.textRows !== measured.textRows
    )
      setMeasured(next);
  });
  // While a prompt asks, the queue is one counted line, so the prompt keeps its room.
  const queueView = queueLines(session.queued, pending ? 1 : queueRowsFor(rows));
  const queueRows = queueView.length;
  // The prompt's own cap leaves room for the status line, the queue and the headers of other calls
  // running beside the one it asks about.
  const besidePrompt = live.length > 0 ? 3 : 0;
  const promptRows = Math.max(MIN_PROMPT_ROWS, rows - 1 - STATUS_ROWS - besidePrompt - queueRows);
  // Until a new prompt is measured, it counts as tall as its cap.
  const promptHeight = pending && measured.promptId === pending.id ? measured.prompt : promptRows;
  // The working line and the queue sit above whatever asks or takes input.
  // While a prompt asks, nothing runs: the working line gives the prompt its row.
  const working = pending ? undefined : state.working;
  const aboveRows = (state.waitingSince !== undefined || working ? 1 : 0) + queueRows;
  // Rows the input grew by since it was measured (a paste, queued text back): counted at once.
  const grown = Math.max(0, textRows - measured.textRows);
  const maxLiveRows =
    rows - 1 - LIVE_SLACK - aboveRows - (pending ? STATUS_ROWS + promptHeight : measured.bottom + grown);
  // The command list and a picker get what the input box and the status line leave.
  const listRows = Math.max(1, rows - 1 - LIVE_SLACK - aboveRows - STATUS_ROWS - INPUT_ROWS);
  const pickerRows = Math.max(MIN_PICKER_ROWS, rows - 1 - LIVE_SLACK - aboveRows - measured.bottom);
  // A pick's file changes take what its choices leave.
  const pickChoices = session.pick ? session.pick.choices.length + 4 : 0;
  const changeRows = session.pick?.changes
    ? Math.max(0, pickerRows - Math.max(MIN_PICKER_ROWS, pickChoices))
    : 0;

  return (
    <ThemeContext.Provider value={theme}>
      <KeyRouterProvider value={keys}>
        <Box ref={root} flexDirection="column" overflow="hidden" justifyContent="flex-end">
          <Box flexDirection="column" flexShrink={0}>
            <Transcript
              key={state.epoch}
              done={state.done}
              live={viewerOpen ? [] : live}
              columns={columns}
              maxLiveRows={maxLiveRows}
            />
            {viewerOpen && viewerKey !== undefined ? (
              <Viewer
                items={viewable}
                initialKey={viewerKey}
                screen={altScreen}
                terminal={terminal}
                noColor={noColor}
                onClose={() => setViewing(undefined)}
              />
            ) : null}
            {!viewerOpen ? (
              <WorkingLine
                model={controller.model}
                waitingSince={state.waitingSince}
                working={working}
                usage={state.usage}
              />
            ) : null}
            <QueuedMessages lines={queueView} />
            {pending ? (
              // Hidden, not unmounted, under the viewer: the prompt comes back as it was.
              <Box ref={prompt} flexDirection="column" flexShrink={0} display={viewerOpen ? 'none' : 'flex'}>
                <ApprovalPrompt
                  key={pending.id}
                  request={pending.request}
                  displayName={pending.displayName}
                  hidden={pending.hidden}
                  answerDelayMs={controller.answerDelayMs}
                  onDecision={approval.answer}
                  onInterrupt={session.interrupt}
                  maxRows={promptRows}
                  columns={columns}
                  onShowAll={(preview) => {
                    dispatch({ type: 'show_preview', ...preview });
                    if (previewLongerThan(preview, PREVIEW_MAX_ROWS)) setViewing(PREVIEW);
                  }}
                />
              </Box>
            ) : null}
            {session.pick?.changes && changeRows > 0 && !pending && !viewerOpen ? (
              <PickChanges changes={session.pick.changes} notes={session.pick.notes} maxRows={changeRows} />
            ) : null}
            {session.pick && !pending && !viewerOpen ? (
              <Picker
                // A pick that leads to another (`/rewind`) gets a fresh picker.
                key={session.pick.title}
                title={session.pick.title}
                choices={session.pick.choices}
                selected={session.pick.selected}
                onChoose={session.answerPick}
                onCancel={() => session.answerPick(undefined)}
                maxRows={pickerRows - changeRows}
              />
            ) : null}
            {/* While the viewer is open Ink draws no live part: the main screen waits as it was. */}
            <Box ref={bottom} flexDirection="column" flexShrink={0} display={viewerOpen ? 'none' : 'flex'}>
              {/* Hidden, not unmounted, while a prompt asks: what was typed ahead stays. */}
              <Box display={pending ? 'none' : 'flex'} flexDirection="column">
                <PromptInput
                  active={!approval.pending && !session.pick && !viewerOpen}
                  busy={session.busy}
                  history={history.entries}
                  onSubmit={session.submit}
                  queued={session.queued.length}
                  onUnqueue={session.unqueue}
                  restore={session.returned}
                  onInterrupt={session.interrupt}
                  onRewind={() => session.submit('/rewind')}
                  onExit={session.exit}
                  commands={commands}
                  onRedraw={redraw}
                  onRepaint={repaint}
                  onExpand={openViewer}
                  onEdit={controller.editText ? (text) => controller.editText!(text) : undefined}
                  maxListRows={listRows}
                  columns={columns}
                  onTextRows={setTextRows}
                  onCycleMode={cycleMode}
                  files={controller.files}
                  onPasteImage={controller.pasteImage ? () => controller.pasteImage!() : undefined}
                  onPasteImagePath={
                    controller.attachImageFile ? (path) => controller.attachImageFile!(path) : undefined
                  }
                  attachments={controller.attachments ? () => controller.attachments!() : undefined}
                />
              </Box>
              <StatusLine
                model={controller.model}
                workspace={controller.workspace}
                home={homeDir}
                usage={usageSinceClear(state)}
                context={state.context}
                webStatus={controller.webStatus}
                busy={session.busy}
                mode={controller.mode}
                sandbox={controller.sandboxStatus}
                columns={columns}
              />
            </Box>
          </Box>
        </Box>
      </KeyRouterProvider>
    </ThemeContext.Provider>
  );
}

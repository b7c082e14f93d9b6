import { Box, useApp, useStdout } from 'ink';
import { homedir } from 'node:os';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { Controller } from './controller';
import { ApprovalPrompt } from './ApprovalPrompt';
import { Picker } from './Picker';
import { PromptInput } from './PromptInput';
import { StatusLine } from './StatusLine';
import { Transcript } from './Transcript';
import { Waiting } from './Waiting';
import { KeyRouterProvider, useKeyRouter } from './keys';
import { ThemeContext, makeTheme } from './theme';
import { useApproval } from './use-approval';
import { useHistory } from './use-history';
import { useSession } from './use-session';
import { useTranscript } from './use-transcript';
import { usageSinceClear } from './transcript-state';

export interface AppProps {
  controller: Controller;
  /** True when `NO_COLOR` is set: no colour codes at all. */
  noColor?: boolean;
  /** Home folder for `~` in the status line; default `os.homedir()`. */
  home?: string;
  /** A prompt given on the command line (`codey "fix the bug"`): submitted once, at start. */
  initialPrompt?: string;
}

/** Clears the screen and the scrollback and puts the cursor home, as `clear` does. */
const CLEAR_ALL = '\u001B[2J\u001B[3J\u001B[H';

/** The interactive session: transcript, then the approval prompt or the input, then the status line. */
export function App({ controller, noColor = false, home, initialPrompt }: AppProps) {
  const theme = useMemo(() => makeTheme(controller.theme, noColor), [controller.theme, noColor]);
  const { exit } = useApp();
  const { state, dispatch } = useTranscript(controller);
  const approval = useApproval(controller);
  const history = useHistory(controller.historyFile);
  const session = useSession(controller, dispatch, history.add, exit);
  const { write } = useStdout();
  // After `/clear` has emptied the transcript and its frame is drawn: clear the screen, scrollback
  // and cursor as `clear` does; Ink draws the (new) live part again below.
  useEffect(() => {
    if (state.clears) write(CLEAR_ALL);
  }, [state.clears, write]);
  // Ctrl+L: clear the screen (torn lines, another program's output), then print the transcript again.
  const redraw = useCallback(() => {
    write(CLEAR_ALL);
    dispatch({ type: 'redraw' });
  }, [write, dispatch]);
  const homeDir = useMemo(() => home ?? homedir(), [home]);
  const keys = useKeyRouter();
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !initialPrompt?.trim()) return;
    started.current = true;
    session.submit(initialPrompt);
  }, [initialPrompt, session]);

  return (
    <ThemeContext.Provider value={theme}>
      <KeyRouterProvider value={keys}>
        <Box flexDirection="column">
          <Transcript key={state.epoch} done={state.done} live={state.live} />
          {state.waitingSince !== undefined ? (
            <Waiting model={controller.model} since={state.waitingSince} />
          ) : null}
          {approval.pending ? (
            <ApprovalPrompt
              key={approval.pending.id}
              request={approval.pending.request}
              displayName={approval.pending.displayName}
              onDecision={approval.answer}
              onInterrupt={session.interrupt}
            />
          ) : null}
          {session.pick && !approval.pending ? (
            <Picker
              title={session.pick.title}
              choices={session.pick.choices}
              selected={session.pick.selected}
              onChoose={session.answerPick}
              onCancel={() => session.answerPick(undefined)}
            />
          ) : null}
          <PromptInput
            active={!approval.pending && !session.pick}
            busy={session.busy}
            history={history.entries}
            onSubmit={session.submit}
            onInterrupt={session.interrupt}
            onExit={session.exit}
            onRedraw={redraw}
            onEdit={controller.editText ? (text) => controller.editText!(text) : undefined}
          />
          <StatusLine
            model={controller.model}
            workspace={controller.workspace}
            home={homeDir}
            usage={usageSinceClear(state)}
            webStatus={controller.webStatus}
            busy={session.busy}
          />
        </Box>
      </KeyRouterProvider>
    </ThemeContext.Provider>
  );
}

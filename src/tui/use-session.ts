import { useCallback, useRef, useState } from 'react';
import type { Controller } from './controller';
import { COMMANDS, executeCommand, findCommand, type CommandSpec } from './commands';
import type { TranscriptAction } from './transcript-state';

/** On quitting during a turn, how long to wait (ms) for the interrupted turn to settle. */
export const EXIT_GRACE_MS = 2000;

/**
 * Sends prompts and commands: a prompt starts a turn with its own AbortController; `interrupt`
 * aborts it; a command runs from the registry against the controller (refused mid-turn unless its
 * `whileBusy` allows it) and its outcome goes into the transcript, or, for a command that sends a
 * prompt (a custom command, /init), starts a turn with it.
 */
export function useSession(
  controller: Controller,
  dispatch: (action: TranscriptAction) => void,
  remember: (entry: string) => void,
  quit: () => void,
  commands: readonly CommandSpec[] = COMMANDS,
): { busy: boolean; submit: (text: string) => boolean; interrupt: () => void; exit: () => void } {
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | undefined>(undefined);
  const running = useRef<Promise<void> | undefined>(undefined);
  const exiting = useRef(false);

  const interrupt = useCallback(() => abort.current?.abort(), []);

  // Quitting mid-turn interrupts it and waits (briefly) for it to settle, so the loop can close its
  // open tool calls; asking to quit again does not wait.
  const exit = useCallback(() => {
    const turn = running.current;
    abort.current?.abort();
    if (!turn || exiting.current) return quit();
    exiting.current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, EXIT_GRACE_MS)));
    void Promise.race([turn, grace]).then(() => {
      clearTimeout(timer);
      quit();
    });
  }, [quit]);

  const runPrompt = useCallback(
    (text: string) => {
      const ac = new AbortController();
      abort.current = ac;
      setBusy(true);
      dispatch({ type: 'turn_start' });
      // A synchronous throw from run becomes a rejection like any other failure.
      const turn = new Promise<void>((resolve) => resolve(controller.run(text, ac.signal)))
        .catch((err: unknown) =>
          dispatch({ type: 'local_error', message: (err as Error).message ?? String(err) }),
        )
        .finally(() => {
          dispatch({ type: 'settle' });
          if (abort.current === ac) abort.current = undefined;
          if (running.current === turn) running.current = undefined;
          setBusy(false);
        });
      running.current = turn;
    },
    [controller, dispatch],
  );

  const runCommand = useCallback(
    (line: string) => {
      // Each command's `whileBusy` decides whether it may run during the turn. One that may not
      // keeps the session busy while it runs, as a turn does: Esc interrupts it (`/compact`), and
      // no prompt starts meanwhile.
      const busy = Boolean(abort.current);
      const exclusive = !busy && findCommand(line.trim().split(/\s+/)[0], commands)?.whileBusy === false;
      const ac = new AbortController();
      if (exclusive) {
        abort.current = ac;
        setBusy(true);
      }
      let send: string | undefined;
      const done = executeCommand(line, controller, { busy, signal: ac.signal, commands })
        .then((outcome) => {
          if (outcome.kind === 'exit') exit();
          else if (outcome.kind === 'error') dispatch({ type: 'local_error', message: outcome.message });
          else if (outcome.kind === 'send') send = outcome.prompt;
          else dispatch({ type: 'info', title: outcome.title, lines: outcome.lines });
        })
        .finally(() => {
          if (exclusive) {
            if (abort.current === ac) abort.current = undefined;
            if (running.current === done) running.current = undefined;
            setBusy(false);
          }
          if (send === undefined) return;
          // A turn that started while the command ran keeps going; this prompt does not jump in.
          if (running.current)
            dispatch({
              type: 'local_error',
              message: 'A turn is running: send the command again when it ends.',
            });
          else runPrompt(send);
        });
      if (exclusive) running.current = done;
    },
    [controller, dispatch, exit, commands, runPrompt],
  );

  // A ref, not `busy`: two Enters faster than a render must not start two turns.
  const submit = useCallback(
    (text: string) => {
      const command = text.startsWith('/');
      if (!command && running.current) return false;
      remember(text);
      dispatch({ type: 'user_prompt', text });
      if (command) runCommand(text);
      else runPrompt(text);
      return true;
    },
    [dispatch, remember, runCommand, runPrompt],
  );

  return { busy, submit, interrupt, exit };
}

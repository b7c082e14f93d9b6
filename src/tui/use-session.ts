import { useCallback, useRef, useState } from 'react';
import type { Controller } from './controller';
import {
  COMMANDS,
  executeCommand,
  findCommand,
  type CommandOutcome,
  type CommandSpec,
  type PickOutcome,
} from './commands';
import type { TranscriptAction } from './transcript-state';

/** Lines of a `!cmd`'s output shown (its tail); the model gets it all, within the house caps. */
const SHELL_TAIL_LINES = 20;

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
): {
  busy: boolean;
  submit: (text: string) => boolean;
  interrupt: () => void;
  exit: () => void;
  /** A command's pending choice (`/model` without a name), shown in place of the input. */
  pick?: PickOutcome;
  answerPick: (index: number | undefined) => void;
} {
  const [busy, setBusy] = useState(false);
  const [pick, setPick] = useState<PickOutcome | undefined>(undefined);
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

  // A command's outcome goes into the transcript; a pick waits for the person's choice first.
  const show = useCallback(
    (outcome: CommandOutcome) => {
      if (outcome.kind === 'pick') setPick(outcome);
      else if (outcome.kind === 'send') runPrompt(outcome.prompt);
      else if (outcome.kind === 'exit') exit();
      else if (outcome.kind === 'cleared') {
        dispatch({ type: 'clear' });
        dispatch({ type: 'info', lines: outcome.lines });
      } else if (outcome.kind === 'error') dispatch({ type: 'local_error', message: outcome.message });
      else dispatch({ type: 'info', title: outcome.title, lines: outcome.lines });
    },
    [dispatch, exit, runPrompt],
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
          if (outcome.kind === 'send') send = outcome.prompt;
          else show(outcome);
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
    [controller, dispatch, commands, runPrompt, show],
  );

  /** Answers the pending pick: the index chosen, or undefined when cancelled. */
  const answerPick = useCallback(
    (index: number | undefined) => {
      const p = pick;
      setPick(undefined);
      if (!p || index === undefined) return;
      void Promise.resolve()
        .then(() => p.choose(index))
        .then(show, (err: unknown) =>
          dispatch({ type: 'local_error', message: (err as Error).message ?? String(err) }),
        );
    },
    [pick, show, dispatch],
  );

  // `!cmd`: the person's own shell command, run now; it shows as a block with its output's tail.
  const runShell = useCallback(
    (command: string, shell: NonNullable<Controller['shell']>) => {
      const ac = new AbortController();
      abort.current = ac;
      setBusy(true);
      const run = new Promise<{ output: string; exitCode: number | null }>((resolve) =>
        resolve(shell(command, ac.signal)),
      )
        .then(({ output, exitCode }) => {
          const lines = output.split('\n');
          const shown = lines.slice(-SHELL_TAIL_LINES);
          const more = lines.length - shown.length;
          dispatch({
            type: 'info',
            title: `$ ${command}${exitCode ? `  (exit ${exitCode})` : ''}`,
            lines: [...(more > 0 ? [`… +${more} lines above`] : []), ...shown],
          });
        })
        .catch((err: unknown) =>
          dispatch({ type: 'local_error', message: (err as Error).message ?? String(err) }),
        )
        .finally(() => {
          if (abort.current === ac) abort.current = undefined;
          if (running.current === run) running.current = undefined;
          setBusy(false);
        });
      running.current = run;
    },
    [dispatch],
  );

  // A ref, not `busy`: two Enters faster than a render must not start two turns.
  const submit = useCallback(
    (text: string) => {
      const command = text.startsWith('/');
      const shell = text.startsWith('!') && text.length > 1 ? controller.shell?.bind(controller) : undefined;
      if (!command && running.current) return false;
      remember(text);
      dispatch({ type: 'user_prompt', text });
      if (command) runCommand(text);
      else if (shell) runShell(text.slice(1).trim(), shell);
      else runPrompt(text);
      return true;
    },
    [controller, dispatch, remember, runCommand, runPrompt, runShell],
  );

  return { busy, submit, interrupt, exit, pick, answerPick };
}

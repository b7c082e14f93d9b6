import { useCallback, useRef, useState } from 'react';
import type { Controller } from './controller';
import {
  COMMANDS,
  executeCommand,
  isCommandLine,
  findCommand,
  type CommandOutcome,
  type CommandSpec,
  type PickOutcome,
} from '../commands/commands';
import { QUEUE_JOIN, nextFromQueue } from '../input/queue';
import { shellOutputItem } from '../transcript/shell-output';
import type { TranscriptAction } from '../transcript/transcript-state';
import { planApproval } from './plan-approval';

/** On quitting during a turn, how long to wait (ms) for the interrupted turn to settle. */
const EXIT_GRACE_MS = 2000;

/** Why queued messages went back to the input instead of being sent. */
const BACK_AFTER_INTERRUPT = 'Interrupted: what you queued is back in the input; Enter sends it.';
const BACK_AFTER_ERROR = 'The turn failed: what you queued is back in the input; Enter sends it.';

/**
 * Queued text handed back to the input (after an interrupt or a failed turn): the input puts
 * `text` before what it holds and shows `why`. A new `id` each time.
 */
export interface ReturnedText {
  id: number;
  text: string;
  why: string;
}

/**
 * Sends prompts and commands: a prompt starts a turn with its own AbortController; `interrupt`
 * aborts it; a command runs from the registry against the controller and its outcome goes into the
 * transcript, or, for a command that sends a prompt (a custom command, /init), starts a turn with it.
 *
 * While something runs (a turn, `!cmd`, a command that keeps the session busy), what the person
 * sends waits in `queued`, except commands whose `whileBusy` allows them, which run at once. When it
 * ends normally the queue goes out in order: the plain messages at its front as one user message
 * (joined by a blank line, see queue.ts), a queued command or `!cmd` alone. Interrupted or failed,
 * nothing queued is sent: it comes back as `returned`. Every entry goes to the input history when it
 * is sent or queued, so quitting with a queue loses nothing. A turn that ends with an answer in plan
 * mode, nothing queued, asks the person to approve the plan (./plan-approval.ts).
 */
export function useSession(
  controller: Controller,
  dispatch: (action: TranscriptAction) => void,
  remember: (entry: string) => void,
  quit: () => void,
  commands: readonly CommandSpec[] = COMMANDS,
): {
  busy: boolean;
  submit: (text: string) => void;
  interrupt: () => void;
  exit: () => void;
  /** A command's pending choice (`/model` without a name), shown in place of the input. */
  pick?: PickOutcome;
  answerPick: (index: number | undefined) => void;
  /** Messages waiting for the running turn to end, oldest first. */
  queued: readonly string[];
  /** ↑ on an empty input: the newest queued message, taken out of the queue; undefined when empty. */
  unqueue: () => string | undefined;
  /** The latest queue handed back to the input. */
  returned?: ReturnedText;
} {
  const [busy, setBusy] = useState(false);
  const [pick, setPick] = useState<PickOutcome | undefined>(undefined);
  const [queued, setQueued] = useState<readonly string[]>([]);
  const [returned, setReturned] = useState<ReturnedText | undefined>(undefined);
  const abort = useRef<AbortController | undefined>(undefined);
  const running = useRef<Promise<unknown> | undefined>(undefined);
  const exiting = useRef(false);
  // Refs, not state: keys that arrive together each see the previous one's change.
  const queue = useRef<string[]>([]);
  const picking = useRef(false);
  // What runs when a turn, command or `!cmd` has settled: the queue goes out, or back (`why`).
  const settled = useRef<(why?: string) => void>(() => undefined);

  const setQueue = useCallback((next: string[]) => {
    queue.current = next;
    setQueued(next);
  }, []);

  const interrupt = useCallback(() => abort.current?.abort(), []);

  // Quitting mid-turn interrupts it and waits (briefly) for it to settle, so the loop can close its
  // open tool calls; asking to quit again does not wait.
  const exit = useCallback(() => {
    const turn = running.current;
    const again = exiting.current;
    exiting.current = true;
    abort.current?.abort();
    if (!turn || again) return quit();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, EXIT_GRACE_MS)));
    void Promise.race([turn, grace]).then(() => {
      clearTimeout(timer);
      quit();
    });
  }, [quit]);

  const runPrompt = useCallback(
    (text: string, typed?: string) => {
      const ac = new AbortController();
      abort.current = ac;
      setBusy(true);
      dispatch({ type: 'turn_start' });
      let failed = false;
      let answered = false;
      const unsubscribe = controller.subscribe((e) => {
        if (e.type !== 'turn_end' || e.agentId) return;
        if (e.reason === 'error' || e.reason === 'interrupted') failed = true;
        answered = e.reason === 'end_turn' && e.text.trim() !== '';
      });
      // A synchronous throw from run becomes a rejection like any other failure.
      const turn = new Promise<void>((resolve) => resolve(controller.run(text, ac.signal, typed)))
        .catch((err: unknown) => {
          failed = true;
          dispatch({ type: 'local_error', message: (err as Error).message ?? String(err) });
        })
        .finally(() => {
          unsubscribe();
          dispatch({ type: 'settle' });
          if (abort.current === ac) abort.current = undefined;
          if (running.current === turn) running.current = undefined;
          setBusy(false);
          const clean = !ac.signal.aborted && !failed && !exiting.current;
          if (clean && answered && controller.mode === 'plan' && queue.current.length === 0)
            askPlan.current();
          settled.current(ac.signal.aborted ? BACK_AFTER_INTERRUPT : failed ? BACK_AFTER_ERROR : undefined);
        });
      running.current = turn;
    },
    [controller, dispatch],
  );

  // The plan's approval: a pick whose "yes" switches the mode and sends the go-ahead as the person's.
  const askPlan = useRef<() => void>(() => undefined);
  askPlan.current = () => {
    const pick = planApproval((mode) => controller.setMode(mode));
    show({
      ...pick,
      choose: async (index) => {
        const outcome = await pick.choose(index);
        if (outcome.kind === 'send') dispatch({ type: 'user_prompt', text: outcome.prompt });
        return outcome;
      },
    });
  };

  // A command's outcome goes into the transcript; a pick waits for the person's choice first.
  const show = useCallback(
    (outcome: CommandOutcome) => {
      if (outcome.kind === 'pick') {
        picking.current = true;
        setPick(outcome);
      } else if (outcome.kind === 'send') runPrompt(outcome.prompt);
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
      // what is sent meanwhile is queued. Any command started between turns holds the queue until
      // it is done, so queued lines run in order.
      const busy = Boolean(abort.current);
      const idle = !running.current;
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
            setBusy(false);
          }
          if (running.current === done) running.current = undefined;
          if (send === undefined)
            return settled.current(ac.signal.aborted ? BACK_AFTER_INTERRUPT : undefined);
          // A turn that started while the command ran keeps going; this prompt does not jump in.
          if (running.current)
            dispatch({
              type: 'local_error',
              message: 'A turn is running: send the command again when it ends.',
            });
          else runPrompt(send, line);
        });
      if (idle) running.current = done;
    },
    [controller, dispatch, commands, runPrompt, show],
  );

  /** Answers the pending pick: the index chosen, or undefined when cancelled. */
  const answerPick = useCallback(
    (index: number | undefined) => {
      const p = pick;
      setPick(undefined);
      picking.current = false;
      if (!p || index === undefined) return settled.current();
      void Promise.resolve()
        .then(() => p.choose(index))
        .then(show, (err: unknown) =>
          dispatch({ type: 'local_error', message: (err as Error).message ?? String(err) }),
        )
        .finally(() => settled.current());
    },
    [pick, show, dispatch],
  );

  // `!cmd`: the person's own shell command, run now; it shows as a block with its output's tail.
  const runShell = useCallback(
    (command: string, shell: NonNullable<Controller['shell']>) => {
      const ac = new AbortController();
      abort.current = ac;
      setBusy(true);
      dispatch({ type: 'shell_start', command });
      const run = new Promise<{ output: string; exitCode: number | null }>((resolve) =>
        resolve(shell(command, ac.signal)),
      )
        .then(({ output, exitCode }) => dispatch(shellOutputItem(command, exitCode, output)))
        .catch((err: unknown) =>
          dispatch({ type: 'local_error', message: (err as Error).message ?? String(err) }),
        )
        .finally(() => {
          dispatch({ type: 'settle' });
          if (abort.current === ac) abort.current = undefined;
          if (running.current === run) running.current = undefined;
          setBusy(false);
          settled.current(ac.signal.aborted ? BACK_AFTER_INTERRUPT : undefined);
        });
      running.current = run;
    },
    [dispatch],
  );

  const shellOf = useCallback(
    (text: string) =>
      text.startsWith('!') && text.length > 1 ? controller.shell?.bind(controller) : undefined,
    [controller],
  );

  /** Shows `text` as the person's message and runs it: a command, a `!cmd` or a prompt. */
  const start = useCallback(
    (text: string) => {
      const shell = shellOf(text);
      dispatch({ type: 'user_prompt', text });
      if (isCommandLine(text, commands)) runCommand(text);
      else if (shell) runShell(text.slice(1).trim(), shell);
      else runPrompt(text);
    },
    [commands, dispatch, runCommand, runPrompt, runShell, shellOf],
  );

  const isPrompt = useCallback(
    (text: string) => !isCommandLine(text, commands) && !shellOf(text),
    [commands, shellOf],
  );

  /** Sends what is next in the queue, once nothing runs and no choice is pending. */
  const drain = useCallback(() => {
    if (exiting.current || running.current || picking.current) return;
    const next = nextFromQueue(queue.current, isPrompt);
    if (!next) return;
    setQueue(queue.current.slice(next.count));
    start(next.text);
  }, [isPrompt, setQueue, start]);

  settled.current = (why?: string) => {
    if (!why) return drain();
    if (queue.current.length === 0) return;
    const text = queue.current.join(QUEUE_JOIN);
    setQueue([]);
    setReturned((r) => ({ id: (r?.id ?? 0) + 1, text, why }));
  };

  // A ref, not `busy`: two Enters faster than a render must not start two turns.
  const submit = useCallback(
    (text: string) => {
      remember(text);
      const waiting = Boolean(running.current) || picking.current || queue.current.length > 0;
      // A command that may run during a turn (or that is unknown: its error shows now) runs at once.
      const command = isCommandLine(text, commands);
      const spec = command ? findCommand(text.trim().split(/\s+/)[0], commands) : undefined;
      const atOnce = command && (!spec || spec.whileBusy);
      if (!waiting || atOnce) return start(text);
      setQueue([...queue.current, text]);
      drain();
    },
    [commands, drain, remember, setQueue, start],
  );

  const unqueue = useCallback(() => {
    const last = queue.current.at(-1);
    if (last !== undefined) setQueue(queue.current.slice(0, -1));
    return last;
  }, [setQueue]);

  return { busy, submit, interrupt, exit, pick, answerPick, queued, unqueue, returned };
}

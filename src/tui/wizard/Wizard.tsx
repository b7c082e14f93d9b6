import { useInput, type Key } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { writeUserConfig } from '../../config/write';
import { useTheme } from '../widgets/theme';
import { KeyStep } from './KeyStep';
import { ModelStep } from './ModelStep';
import {
  initialState,
  reduce,
  valuesToWrite,
  type Press,
  type WizardAction,
  type WizardDeps,
  type WizardOutcome,
} from './state';
import { SummaryStep } from './SummaryStep';
import { WebStep } from './WebStep';
import { Wrapped } from '../widgets/Wrapped';

export interface WizardProps {
  deps: WizardDeps;
  /** Called once, when the file is written or the wizard is cancelled. */
  onDone?: (outcome: WizardOutcome) => void;
}

/** Ink's key to the reducer's {@link Press}. */
function toPress(input: string, key: Key): Press {
  const ctrl = key.ctrl && !key.meta;
  return {
    text: key.ctrl || key.meta ? '' : input,
    up: key.upArrow,
    down: key.downArrow || key.tab,
    enter: key.return,
    esc: key.escape,
    // Ink reports the Backspace key (0x7f) as `delete` on most terminals.
    backspace: key.backspace || key.delete,
    clear: ctrl && input === 'u',
    ctrlC: ctrl && input === 'c',
  };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * codey's first-run setup: API key, model, web search, summary; then merges the choices into the user
 * config file with `deps.write`. Keys: ↑↓ and Enter, digits on lists, Esc back (cancel on the first
 * step), Ctrl+C cancel. The state and its rules are in state.ts.
 */
export function Wizard({ deps, onDone }: WizardProps) {
  const theme = useTheme();
  const [state, setState] = useState(() => initialState(deps));
  // The current state, read by the handlers. The write starts right where the step changes, not in
  // an effect, so it follows the key press deterministically.
  const current = useRef(state);
  const reported = useRef(false);

  const apply = (action: WizardAction) => {
    const prev = current.current;
    const next = reduce(prev, action);
    if (next === prev) return;
    current.current = next;
    setState(next);
    if (next.step === 'saving' && prev.step !== 'saving') {
      const write = deps.write ?? writeUserConfig;
      const values = valuesToWrite(next);
      // A writer that throws synchronously is reported like one that rejects.
      void Promise.resolve()
        .then(() => write(deps.userFile, values))
        .then(
          () => apply({ type: 'saved' }),
          (err: unknown) =>
            apply({ type: 'failed', message: `Not saved: ${errorText(err)}. Enter tries again.` }),
        );
    }
  };

  useInput((input, key) => apply({ type: 'press', press: toPress(input, key) }));

  useEffect(() => {
    let live = true;
    void deps.isOnPath('ddgs').then(
      (found) => live && apply({ type: 'ddgs', found }),
      () => live && apply({ type: 'ddgs', found: false }),
    );
    return () => {
      live = false;
    };
    // Once per mount: `apply` reads the state through the ref.
  }, [deps]);

  // After the last frame is committed, so a caller that unmounts on `onDone` leaves it on screen.
  useEffect(() => {
    if (reported.current || (state.step !== 'done' && state.step !== 'cancelled')) return;
    reported.current = true;
    onDone?.(state.step === 'done' ? { written: true, file: deps.userFile } : { written: false });
  }, [state.step, deps.userFile, onDone]);

  switch (state.step) {
    case 'key':
    case 'key-paste':
    case 'endpoint-url':
    case 'endpoint-key':
      return <KeyStep state={state} />;
    case 'model':
    case 'model-custom':
      return <ModelStep state={state} />;
    case 'web':
    case 'web-command':
      return <WebStep state={state} />;
    case 'summary':
    case 'saving':
      return <SummaryStep state={state} />;
    case 'done':
      return (
        <Wrapped
          color={theme.success}
        >{`Saved to ${deps.userFile}. Run \`codey setup\` to change it.`}</Wrapped>
      );
    case 'cancelled':
      return <Wrapped color={theme.muted}>Setup cancelled; nothing was written.</Wrapped>;
  }
}

import { MODEL_CHOICES, TYPE_MODEL_LABEL } from './options';
import type { WizardState } from './state';
import { TextField } from './TextField';
import { StepList, WizardFrame } from './WizardFrame';
import { Wrapped } from '../widgets/Wrapped';

const INTRO = 'Which model should codey use?';

/** Step 2: pick a current model, or type an id (for an endpoint that serves other models). */
export function ModelStep({ state }: { state: WizardState }) {
  if (state.step === 'model-custom') {
    return (
      <WizardFrame
        number={2}
        title="Model"
        hint="Enter continue · Ctrl+U clear · Esc back"
        error={state.error}
      >
        <TextField label="Model id:" value={state.text} placeholder="e.g. claude-opus-4-8" />
      </WizardFrame>
    );
  }
  const hint = `↑↓ Enter · 1-${MODEL_CHOICES.length + 1} · Esc back`;
  const items = [...MODEL_CHOICES.map((m) => ({ label: `${m.id}  ${m.note}` })), { label: TYPE_MODEL_LABEL }];
  return (
    <WizardFrame number={2} title="Model" hint={hint} error={state.error}>
      <Wrapped>{INTRO}</Wrapped>
      <StepList items={items} selected={state.cursor} texts={[INTRO, hint, state.error]} />
    </WizardFrame>
  );
}

import { Box } from 'ink';
import { ChoiceList } from '../widgets/ChoiceList';
import { MODEL_CHOICES, TYPE_MODEL_LABEL } from './options';
import type { WizardState } from './state';
import { TextField } from './TextField';
import { WizardFrame } from './WizardFrame';
import { Wrapped } from '../widgets/Wrapped';

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
  const items = [...MODEL_CHOICES.map((m) => ({ label: `${m.id}  ${m.note}` })), { label: TYPE_MODEL_LABEL }];
  return (
    <WizardFrame
      number={2}
      title="Model"
      hint={`↑↓ Enter · 1-${items.length} · Esc back`}
      error={state.error}
    >
      <Wrapped>Which model should codey use?</Wrapped>
      <Box marginTop={1}>
        <ChoiceList items={items} selected={state.cursor} />
      </Box>
    </WizardFrame>
  );
}

import { Box } from 'ink';
import { useTheme } from '../widgets/theme';
import { canKeepKey, type WizardState } from './state';
import { TextField } from './TextField';
import { StepList, WizardFrame } from './WizardFrame';
import { Wrapped } from '../widgets/Wrapped';

const LIST_HINT = '↑↓ Enter · 1-2 · Esc cancel';
const KEY_INTRO = 'No ANTHROPIC_API_KEY in the environment. How should codey reach the model?';
const FIELD_HINT = 'Enter continue · Ctrl+U clear · Esc back';

/**
 * Step 1, where the API key comes from: the environment (named, never shown), a pasted key (stored
 * in the user file, mode 0600), or an endpoint that speaks the Messages API with an optional key.
 */
export function KeyStep({ state }: { state: WizardState }) {
  const theme = useTheme();
  const { ctx, choices, step, error } = state;
  const file = ctx.userFile;

  if (step === 'key' && ctx.envKeyName) {
    return (
      <WizardFrame number={1} title="API key" hint="Enter continue · Esc cancel" error={error}>
        <Wrapped>{`Using ${ctx.envKeyName} from the environment.`}</Wrapped>
        <Wrapped color={theme.muted}>Nothing about the key is written to the config file.</Wrapped>
      </WizardFrame>
    );
  }

  if (step === 'key') {
    return (
      <WizardFrame number={1} title="API key" hint={LIST_HINT} error={error}>
        <Wrapped>{KEY_INTRO}</Wrapped>
        <StepList
          selected={state.cursor}
          texts={[KEY_INTRO, LIST_HINT, error]}
          items={[
            {
              label: 'Paste an Anthropic API key',
              notes: [`Stored in ${file}, readable only by you (mode 0600).`],
            },
            {
              label: 'Use an endpoint (like ANTHROPIC_BASE_URL)',
              notes: ['A gateway or a local server that speaks the Messages API; a key is optional.'],
            },
          ]}
        />
      </WizardFrame>
    );
  }

  if (step === 'key-paste') {
    const keep = canKeepKey(ctx, 'paste', '');
    return (
      <WizardFrame number={1} title="API key" hint={FIELD_HINT} error={error}>
        <Wrapped>{`Paste your Anthropic API key. It is stored in ${file} (mode 0600).`}</Wrapped>
        <Box marginTop={1}>
          <TextField
            label="Key:"
            value={state.text}
            mask
            placeholder={keep ? `Enter keeps the key stored in the file` : ''}
          />
        </Box>
      </WizardFrame>
    );
  }

  if (step === 'endpoint-url') {
    return (
      <WizardFrame number={1} title="Endpoint" hint={FIELD_HINT} error={error}>
        <Wrapped>The base URL of a gateway or a local server that speaks the Messages API.</Wrapped>
        <Box marginTop={1}>
          <TextField label="URL:" value={state.text} placeholder="e.g. http://localhost:4000" />
        </Box>
      </WizardFrame>
    );
  }

  const keep = canKeepKey(ctx, 'endpoint', choices.baseUrl);
  return (
    <WizardFrame number={1} title="Endpoint key" hint={FIELD_HINT} error={error}>
      <Wrapped>{`A key for ${choices.baseUrl}, if it needs one. It is stored in ${file} (mode 0600).`}</Wrapped>
      <Box marginTop={1}>
        <TextField
          label="Key:"
          value={state.text}
          mask
          placeholder={keep ? 'Enter keeps the key stored in the file' : 'optional: Enter for no key'}
        />
      </Box>
    </WizardFrame>
  );
}

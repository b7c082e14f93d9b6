import { Box, Text } from 'ink';
import { useTheme } from '../widgets/theme';
import { commandArgv, type WizardState } from './state';
import { ddgsStatus, envStatus } from './WebStep';
import { webChoice } from './options';
import { WizardFrame } from './WizardFrame';
import { Wrapped } from '../widgets/Wrapped';

/** Where the key comes from, in words; never the key. */
function keySourceText(state: WizardState): string {
  const { ctx, choices: c } = state;
  const stored = `stored in ${ctx.userFile}`;
  switch (c.keySource) {
    case 'env':
      return `from the environment (${ctx.envKeyName ?? 'ANTHROPIC_API_KEY'})`;
    case 'paste':
      return c.apiKey.kind === 'keep' ? `${stored} (kept)` : stored;
    case 'endpoint': {
      const key =
        c.apiKey.kind === 'typed'
          ? `key ${stored}`
          : c.apiKey.kind === 'keep'
            ? `key ${stored} (kept)`
            : 'no key';
      return `endpoint ${c.baseUrl}, ${key}`;
    }
  }
}

function webText(state: WizardState): string {
  const c = state.choices;
  if (c.web === 'command') return `local command: ${commandArgv(state).join(' ')}`;
  return webChoice(c.web).label;
}

function Row({ name, value }: { name: string; value: string }) {
  return (
    <Box>
      <Box width={13} flexShrink={0}>
        <Text bold>{name}</Text>
      </Box>
      <Wrapped>{value}</Wrapped>
    </Box>
  );
}

/** Step 4: what will be written, and where; Enter writes it. */
export function SummaryStep({ state }: { state: WizardState }) {
  const theme = useTheme();
  const c = state.choices;
  const choice = webChoice(c.web);
  const saving = state.step === 'saving';
  return (
    <WizardFrame
      number={4}
      title="Summary"
      hint={saving ? 'Saving…' : `Enter save to ${state.ctx.userFile} · Esc back`}
      error={state.error}
    >
      <Row name="Model" value={c.model} />
      <Row name="API key" value={keySourceText(state)} />
      <Row name="Web search" value={webText(state)} />
      <Box paddingLeft={13}>
        <Wrapped color={theme.muted}>{choice.sends}</Wrapped>
      </Box>
      {choice.envVar ? (
        <Box paddingLeft={13}>
          <Wrapped color={state.ctx.envSet[choice.envVar] ? theme.muted : theme.warning}>
            {envStatus(choice.envVar, state.ctx.envSet[choice.envVar] === true)}
          </Wrapped>
        </Box>
      ) : null}
      {c.web === 'command' && commandArgv(state)[0] === 'ddgs' && state.ddgs === 'missing' ? (
        <Box paddingLeft={13}>
          <Wrapped color={theme.warning}>{ddgsStatus(state.ddgs)}</Wrapped>
        </Box>
      ) : null}
    </WizardFrame>
  );
}

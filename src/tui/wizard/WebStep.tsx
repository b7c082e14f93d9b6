import { Box } from 'ink';
import { useTheme } from '../widgets/theme';
import type { ChoiceItem } from '../widgets/ChoiceList';
import { DDGS_INSTALL, WEB_CHOICES, type WebChoice } from './options';
import type { WizardState } from './state';
import { TextField } from './TextField';
import { StepList, WizardFrame } from './WizardFrame';
import { Wrapped } from '../widgets/Wrapped';

/** The status line of ddgs on PATH, for the local command. */
export function ddgsStatus(ddgs: WizardState['ddgs']): string {
  switch (ddgs) {
    case 'checking':
      return 'Looking for ddgs on PATH…';
    case 'found':
      return 'ddgs found on PATH.';
    case 'missing':
      return `ddgs is not on PATH: install it with \`${DDGS_INSTALL}\`.`;
  }
}

/** Whether a provider's variable is set: its name and "set" or "not set", never its value. */
export function envStatus(name: string, isSet: boolean): string {
  return isSet ? `Needs ${name}: set.` : `Needs ${name}: not set; export it before running codey.`;
}

function notes(choice: WebChoice, state: WizardState): string[] {
  const out = [choice.sends];
  if (choice.provider === 'command') out.push(ddgsStatus(state.ddgs));
  if (choice.envVar) out.push(envStatus(choice.envVar, state.ctx.envSet[choice.envVar] === true));
  if (choice.provider === 'hosted' && state.choices.keySource === 'endpoint') {
    out.push(`Your endpoint ${state.choices.baseUrl} will probably reject it.`);
  }
  return out;
}

const WEB_INTRO = 'Can codey search the web, and through whom?';

/** Step 3: web search, with what each provider sends where; then the command template if chosen. */
export function WebStep({ state }: { state: WizardState }) {
  const theme = useTheme();
  if (state.step === 'web-command') {
    const first = state.text.trim().split(/\s+/)[0];
    return (
      <WizardFrame
        number={3}
        title="Search command"
        hint="Enter continue · Ctrl+U clear · Esc back"
        error={state.error}
      >
        <Wrapped>The command run for each search, split on spaces. These words are replaced:</Wrapped>
        <Wrapped color={theme.muted}>
          {'{query} the query · {count} how many results · {out} a temp .json file for the results'}
        </Wrapped>
        <Box marginTop={1}>
          <TextField label="Command:" value={state.text} />
        </Box>
        {first === 'ddgs' ? (
          <Wrapped color={state.ddgs === 'missing' ? theme.warning : theme.muted}>
            {ddgsStatus(state.ddgs)}
          </Wrapped>
        ) : null}
      </WizardFrame>
    );
  }
  const items: ChoiceItem[] = WEB_CHOICES.map((c) => ({ label: c.label, notes: notes(c, state) }));
  const hint = `↑↓ Enter · 1-${items.length} · Esc back`;
  return (
    <WizardFrame number={3} title="Web search" hint={hint} error={state.error}>
      <Wrapped>{WEB_INTRO}</Wrapped>
      <StepList items={items} selected={state.cursor} texts={[WEB_INTRO, hint, state.error]} />
    </WizardFrame>
  );
}

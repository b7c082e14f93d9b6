/**
 * The question after a turn that ended in plan mode: approve the plan, which leaves plan mode and
 * tells the model to go ahead, or keep planning (the input is the person's again).
 */
import type { PickOutcome } from '../commands/commands';
import type { PermissionMode } from '../../util/shapes';

/** What the person's approval says to the model. */
const GO_AHEAD = 'go ahead';

/** Each choice: its label, and the mode it switches to (none: stay in plan mode). */
const CHOICES: readonly { label: string; mode?: PermissionMode }[] = [
  { label: 'Yes, and accept edits (edits and writes run without asking)', mode: 'accept-edits' },
  { label: 'Yes, and ask before each edit', mode: 'default' },
  { label: 'No, keep planning' },
];

/**
 * The pick shown when the model ended its turn in plan mode. An approval calls `setMode` and
 * returns a `send` of {@link GO_AHEAD}; "keep planning" (and Esc) leave the mode as it is.
 */
export function planApproval(setMode: (mode: PermissionMode) => void): PickOutcome {
  return {
    kind: 'pick',
    title: 'Plan mode: approve the plan and let it start?',
    choices: CHOICES.map((c) => c.label),
    selected: 0,
    choose: (index) => {
      const mode = CHOICES[index]?.mode;
      if (!mode) return { kind: 'info', lines: ['Still in plan mode: say what to change in the plan.'] };
      setMode(mode);
      return { kind: 'send', prompt: GO_AHEAD };
    },
  };
}

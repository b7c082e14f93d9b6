/**
 * `/rewind [N]`: pick a point (the start of a user turn, or of an earlier rewind), see which files
 * would go back with a diff each, then choose what to put back: the files codey changed, the
 * conversation, or both (and whether to overwrite files the person changed since).
 */
import type { CommandOutcome, CommandSpec, PickChange } from './command-spec';
import type { RewindChoice, RewindFileView, RewindPoint, RewindPreview, SessionPort } from './session-port';
import { bashRanNote, plural } from '../../util/text';

/** Points the first list shows, the newest last and highlighted (a picker shows at most 9). */
const POINTS_SHOWN = 9;

function pointLabel(p: RewindPoint): string {
  const what =
    p.kind === 'turn' ? `turn ${p.n}: ${p.label || '(empty prompt)'}` : `${p.n}: undo the ${p.label}`;
  const files = p.files ? plural(p.files, 'file') : 'no files';
  return `${what}  (${files} changed since)`;
}

const NOTES: Record<RewindFileView['state'], string> = {
  restore: 'goes back',
  remove: 'codey created it: removed',
  changed: "changed since codey's last write: left alone unless you overwrite",
  same: 'already as it was',
  missing: 'cannot be restored',
};

/** The diff of one file as the picker shows it: what it holds now → what it would hold. */
function changeOf(f: RewindFileView): PickChange {
  const note = f.why ? `${NOTES[f.state]} (${f.why})` : NOTES[f.state];
  const binary = f.now === undefined || f.then === undefined;
  const size = (b: number | null) => (b === null ? 'no file' : plural(b, 'byte'));
  return {
    path: f.path,
    note: binary ? `${note}; binary: ${size(f.bytes.now)} → ${size(f.bytes.then)}` : note,
    ...(binary || f.state === 'missing' || f.state === 'same'
      ? {}
      : { before: f.now ?? '', after: f.then ?? '' }),
  };
}

/** The second step: what going back to `preview.point` would do, and the ways to do it. */
function choicesFor(preview: RewindPreview, session: SessionPort): CommandOutcome {
  const { point } = preview;
  const acting = preview.files.filter((f) => f.state === 'restore' || f.state === 'remove');
  const changed = preview.files.filter((f) => f.state === 'changed');
  const talk = preview.conversation === true;
  const options: { label: string; choice: RewindChoice }[] = [];
  if (acting.length && talk)
    options.push({ label: 'Restore code and conversation', choice: { code: true, conversation: true } });
  if (acting.length)
    options.push({ label: 'Restore code only', choice: { code: true, conversation: false } });
  if (talk) options.push({ label: 'Restore conversation only', choice: { code: false, conversation: true } });
  if (changed.length)
    options.push({
      label: `Restore code, overwriting your changes to ${changed.map((f) => f.path).join(', ')}`,
      choice: { code: true, conversation: false, overwrite: true },
    });
  const where = point.kind === 'turn' ? `turn ${point.n} ("${point.label}")` : `rewind ${point.n}`;
  const notes: string[] = [];
  if (preview.bash.length) notes.push(bashRanNote(preview.bash));
  if (!talk) notes.push(`the conversation cannot go back: ${preview.conversation as string}`);
  if (options.length === 0)
    return {
      kind: 'info',
      lines: [`Nothing to restore to before ${where}: no file codey changed since needs it.`, ...notes],
    };
  return {
    kind: 'pick',
    title: `Rewind to before ${where}`,
    notes,
    choices: options.map((o) => o.label),
    selected: 0,
    changes: preview.files.map(changeOf),
    choose: async (i) => ({
      kind: 'info',
      title: 'Rewind',
      lines: await session.rewind(point.n, options[i].choice),
    }),
  };
}

async function previewStep(session: SessionPort, n: number): Promise<CommandOutcome> {
  try {
    return choicesFor(await session.previewRewind(n), session);
  } catch (err) {
    return { kind: 'error', message: `Cannot rewind: ${(err as Error).message}` };
  }
}

export const REWIND_COMMAND: CommandSpec = {
  name: '/rewind',
  args: '[N]',
  description: 'go back to the start of a turn: the files codey changed, the conversation, or both',
  whileBusy: false,
  run: ({ args, session }) => {
    const points = session.rewindPoints();
    if (args) {
      const n = Number(args);
      if (!Number.isInteger(n) || !points.some((p) => p.n === n))
        return {
          kind: 'error',
          message: `No checkpoint ${args}: /rewind lists them (1 to ${points.length})`,
        };
      return previewStep(session, n);
    }
    if (points.length === 0)
      return {
        kind: 'info',
        lines: ['Nothing to rewind yet: codey keeps a checkpoint at the start of every turn.'],
      };
    const shown = points.slice(-POINTS_SHOWN);
    const older = points.length - shown.length;
    return {
      kind: 'pick',
      title: `Rewind to the start of which turn?${older ? ` (${older} older: /rewind N)` : ''}`,
      choices: shown.map(pointLabel),
      selected: shown.length - 1,
      choose: (i) => previewStep(session, shown[i].n),
    };
  },
};

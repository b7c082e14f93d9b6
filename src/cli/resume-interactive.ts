import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { sessionsIn } from '../session/store';
import { askYesNo } from './ask';
import { withKeysHandedOver } from './held-keys';
import { personWriter } from './person-out';
import type { CliOptions } from './cli-options';
import { EXIT } from './exit-codes';
import { findFor, readForResume, resumeRequestOf, sizeOf, storeOf, type Resumption } from './resume';

type Env = Record<string, string | undefined>;
const stderr = personWriter((s) => process.stderr.write(s));

/** `~/src/proj` for a path under the home folder. */
const tilde = (path: string) => {
  const home = homedir();
  return path === home || path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
};

/**
 * The stored session the interactive `codey -c` / `codey -r [ID]` goes on with, asked for on the
 * terminal before the app starts: without an ID, a picker of this workspace's sessions (time, first
 * prompt, size); a session of another workspace is resumed here only when the person says yes.
 * @returns the resumption, undefined for none asked, or the exit code after saying why not.
 */
export async function resumptionForTui(opts: CliOptions, env: Env): Promise<Resumption | undefined | number> {
  const request = resumeRequestOf(opts);
  if (!request) return undefined;
  const workspace = realpathSync(process.cwd());
  let summary;
  if (request.kind === 'pick') {
    const list = sessionsIn(storeOf(env), workspace);
    if (list.length === 0) {
      stderr(`codey: no stored session to resume in ${workspace}: run codey there to start one\n`);
      return EXIT.usage;
    }
    const { pickOne } = await import('../tui/app/pick');
    const items = list.map((s) => ({
      label: `${s.updated_at.slice(0, 16).replace('T', ' ')}  ${s.title || '(no prompt)'}`,
      notes: [`${sizeOf(s)} · ${s.id}`],
    }));
    const index = await withKeysHandedOver(() =>
      pickOne(`Resume a session of ${tilde(workspace)}`, items, { env }),
    );
    if (index === undefined) {
      stderr('codey: nothing resumed\n');
      return EXIT.ok;
    }
    summary = list[index];
  } else {
    const found = findFor(request, workspace, env);
    if (found.ok) summary = found.summary;
    else if (found.otherWorkspace) {
      const yes = await askYesNo(
        `Session ${found.otherWorkspace.id} ran in ${found.otherWorkspace.workspace}, not here (${workspace}).\n` +
          'Resume it here anyway? Its tools will work on this folder. [y/N] ',
      );
      if (!yes) {
        stderr(
          `codey: not resumed; cd ${found.otherWorkspace.workspace} and run codey -r ${found.otherWorkspace.id} there\n`,
        );
        return EXIT.ok;
      }
      summary = found.otherWorkspace;
    } else {
      stderr(`codey: ${found.message}\n`);
      return EXIT.usage;
    }
  }
  try {
    return readForResume(summary, env);
  } catch (err) {
    stderr(`codey: cannot resume: ${(err as Error).message}\n`);
    return EXIT.failed;
  }
}

/**
 * `codey trust [show | grant | revoke | list]`: the trust answers for a project's widening settings
 * (its allow rules, folders, web provider …), for people who only run `-p`. A grant holds while the
 * files' settings stay as they are; any change asks again.
 */
import { ConfigError, resolveSettings, type HeldSettings } from '../config/resolve';
import { forgetTrust, isTrusted, recordTrust, trustAnswers } from '../config/trust';
import { EXIT } from './exit-codes';
import { trustLines } from './project-trust';
import { projectCommandRules } from './project-context';

type Env = Record<string, string | undefined>;

/** `codey trust --help`. */
const TRUST_HELP = `Usage: codey trust [show | grant | revoke | list]

The project files of this folder (.codeyrc.json and the like, .claude/settings.json,
.claude/settings.local.json) may ask for settings that widen what codey may do: allow
rules, more folders, another web provider; its command files may carry allowed-tools.
They apply only once you trust them.

  show     what this folder's files ask for, and whether you trust it (the default)
  grant    trust them with their present settings (any later change asks again)
  revoke   forget the trust given here
  list     every file you trust
`;

/** What this folder's files hold back, after reading them as a run would. */
async function heldHere(cwd: string, env: Env): Promise<HeldSettings | undefined> {
  return (await resolveSettings({ cwd, env, commandRules: await projectCommandRules(cwd, env) })).held;
}

/** What the files ask for: each setting whole (a line per rule and hook command) and what it would let happen. */
const describeHeld = (held: HeldSettings) => [
  `${held.files.join(' and ')} ask${held.files.length === 1 ? 's' : ''} for:`,
  ...trustLines(held).map((l) => `  ${l.what}: ${l.means}`),
];

/**
 * Run `codey trust ARGS` in `cwd`; lines go to `out` (stdout) and `err` (stderr).
 * @returns the exit code: 0, or 2 for an unknown action or an unreadable project file.
 */
export async function runTrust(
  args: readonly string[],
  cwd: string,
  env: Env,
  out: (s: string) => void,
  err: (s: string) => void,
): Promise<number> {
  const action = args[0] ?? 'show';
  if (action === '-h' || action === '--help') {
    out(TRUST_HELP);
    return EXIT.ok;
  }
  if (!['show', 'grant', 'revoke', 'list'].includes(action) || args.length > 1) {
    err(`codey: error: unknown trust action ${JSON.stringify(args.join(' '))}; see codey trust --help\n`);
    return EXIT.usage;
  }
  if (action === 'list') {
    const files = Object.keys(await trustAnswers(env));
    out(files.length ? `${files.join('\n')}\n` : 'codey: you trust no project file yet\n');
    return EXIT.ok;
  }
  let held: HeldSettings | undefined;
  try {
    held = await heldHere(cwd, env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    err(`codey: ${e.message}\n`);
    return EXIT.usage;
  }
  if (action === 'revoke') {
    const gone = await forgetTrust(env, held ? [held.file] : []);
    out(gone.length ? `codey: no longer trusted: ${gone.join(', ')}\n` : 'codey: nothing here was trusted\n');
    return EXIT.ok;
  }
  if (!held) {
    out('codey: nothing here asks for more than your own config gives; there is nothing to trust\n');
    return EXIT.ok;
  }
  if (action === 'grant') {
    await recordTrust(env, held.file, held.digest);
    out(`${['codey: trusted. ' + describeHeld(held)[0], ...describeHeld(held).slice(1)].join('\n')}\n`);
    return EXIT.ok;
  }
  const trusted = await isTrusted(env, held.file, held.digest);
  out(
    `${[`codey: ${describeHeld(held)[0]}`, ...describeHeld(held).slice(1)].join('\n')}\n` +
      (trusted
        ? 'codey: you trust these settings; they apply in every run here while they stay as they are\n'
        : 'codey: not trusted: these settings are ignored; `codey trust grant` trusts them\n'),
  );
  return EXIT.ok;
}

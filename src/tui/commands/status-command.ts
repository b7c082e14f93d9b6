/** `/status`: which codey, where it runs and what it loaded, as a Claude Code user expects it. */
import type { CommandSpec } from './command-spec';
import type { StatusFacts } from './session-port';

const listed = (items: readonly string[], none: string) => (items.length ? items.join(', ') : none);

/** The rows of `/status`, each `label  value`, the labels aligned. */
function statusLines(f: StatusFacts): string[] {
  const rows: [string, string][] = [
    ['version', `codey ${f.version}`],
    ['model', f.model],
    ['endpoint', f.endpoint],
    ['workspace', f.workspace],
    ['project root', f.projectRoot ?? 'none (not in a git repository)'],
    ['instructions', listed(f.instructions, 'none found')],
    ...(f.instructionsSkipped.length
      ? [['not read', f.instructionsSkipped.join(', ')] as [string, string]]
      : []),
    ['loaded later', listed(f.instructionsLater, 'none yet')],
    ['on demand', f.instructionsOnDemand],
    ['settings files', listed(f.settingsFiles, 'none')],
    [
      'trust',
      f.trusted
        ? "trusted: this project's allow rules, folders and command allowed-tools apply"
        : "not trusted: a repository's allow rules, folders and command allowed-tools wait (codey trust)",
    ],
    ['tools', String(f.tools)],
    ['skills', String(f.skills)],
    ['agents', f.agents === undefined ? 'off' : String(f.agents)],
    ['web', f.web],
    ['permission mode', f.mode],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`);
}

export const STATUS_COMMAND: CommandSpec = {
  name: '/status',
  description: 'version, model, endpoint, folders, what was loaded, trust',
  whileBusy: true,
  run: ({ session }) => ({ kind: 'info', title: 'Status', lines: statusLines(session.status()) }),
};

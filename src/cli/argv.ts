import type { Command } from 'commander';

/**
 * Single-dash long flags (`-no-web`, `-base-url=x`, README "Flags") are accepted: rewrite them to
 * the double-dash form commander parses. Short flags (`-p`, `-V`) and everything after `--` are
 * left alone; only names in `longNames` are rewritten, so `-p -no-web` stays safe.
 */
export function normalizeArgv(args: readonly string[], longNames: ReadonlySet<string>): string[] {
  const out: string[] = [];
  let rest = false;
  for (const a of args) {
    if (rest || a === '--') {
      rest = true;
      out.push(a);
      continue;
    }
    const m = /^-([a-z][a-z0-9-]+)(=.*)?$/s.exec(a);
    out.push(m && longNames.has(m[1]) ? `-${a}` : a);
  }
  return out;
}

/** `program`'s long option names without the dashes, `help` and `version` among them: the names `normalizeArgv` rewrites. */
export function longNames(program: Command): Set<string> {
  const names = new Set(['help', 'version']);
  for (const o of program.options) if (o.long) names.add(o.long.replace(/^--/, ''));
  return names;
}

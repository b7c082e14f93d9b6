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

/** The one walk up to a git root, for the project files, the system prompt and the .gitignore rules. */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

/**
 * The nearest folder at or above `dir` holding a `.git` entry (folder or worktree file); undefined
 * outside a repository. Given `home`, a repository at `home` or above it (dotfiles kept in a git
 * repository in HOME) does not count: it would make HOME the project, so that every folder under it
 * read HOME's files as the repository's and a link in a downloaded folder could reach the person's
 * keys. Without `home` it is git's and ripgrep's own rule (which .gitignore files apply). Reads only
 * whether `.git` exists in each folder on the way up.
 */
export function gitRootOf(dir: string, home?: string): string | undefined {
  const holdsHome = (d: string): boolean => {
    if (home === undefined) return false;
    const rel = relative(d, home);
    return rel === '' || (rel.split(sep)[0] !== '..' && !isAbsolute(rel));
  };
  for (let d = dir; ; d = dirname(d)) {
    if (holdsHome(d)) return undefined;
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

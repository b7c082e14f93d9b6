import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Skill } from './skill';

const inside = (dir: string, root: string) => {
  const rel = path.relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/**
 * The folders the read tools may read besides the workspace: each skill's folder, symlinks
 * resolved, for the jail to compare with the resolved target of a read. A project skill (found in
 * the repository's folders) counts only when its resolved folder stays inside `projectRoot` (the git
 * root, or the workspace without one): a repository may narrow what codey reads, never widen it by a
 * symlink. The person's own skills count wherever they resolve. Writes are never granted here.
 * Sorted, without duplicates; a folder that no longer resolves is left out. Never throws.
 */
export async function skillReadRoots(skills: readonly Skill[], projectRoot: string): Promise<string[]> {
  const root = await realpath(projectRoot).catch(() => path.resolve(projectRoot));
  const out = new Set<string>();
  for (const s of skills) {
    const real = await realpath(s.dir).catch(() => undefined);
    if (!real) continue;
    if (s.scope === 'project' && !inside(real, root)) continue;
    out.add(real);
  }
  return [...out].sort();
}

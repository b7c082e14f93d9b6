import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Folders never listed inside a skill: version control and installed packages. */
const SKIPPED_DIRS = new Set(['.git', 'node_modules', '__pycache__']);

/** Entries looked at in one skill folder before the listing stops counting. */
const MAX_SKILL_WALK = 5_000;

/** The files of a skill folder other than SKILL.md. */
export interface SkillFiles {
  /** Relative paths with `/`, sorted, at most `max`. */
  files: string[];
  /** Files found in all (up to {@link MAX_SKILL_WALK} entries looked at). */
  total: number;
  /** True when the walk stopped at {@link MAX_SKILL_WALK} entries, so `total` is a lower bound. */
  partial: boolean;
}

/**
 * List the files under `dir` except its top-level SKILL.md, relative to it, in path order, at most
 * `max`. Skips `.git`, `node_modules` and `__pycache__`; does not follow symlinked folders. A folder
 * that cannot be read is left out. Never throws.
 */
export async function listSkillFiles(dir: string, max: number): Promise<SkillFiles> {
  const found: string[] = [];
  let looked = 0;
  let partial = false;
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (++looked > MAX_SKILL_WALK) {
        partial = true;
        return;
      }
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) await walk(p);
        if (partial) return;
      } else if (p !== 'SKILL.md') found.push(p);
    }
  };
  await walk('');
  found.sort();
  return { files: found.slice(0, max), total: found.length, partial };
}

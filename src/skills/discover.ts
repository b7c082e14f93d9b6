import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  absoluteEnv,
  codeyConfigDir,
  foldersUpToRoot,
  type PlacesInput,
  projectRoot,
  shownPath,
} from './places';
import { isInsideReal, readTextFile, refusalText } from '../util/read-text';
import { leftOutNotice, withinListingBudget } from './budget';
import { frontmatterReady } from './frontmatter';
import { parseSkill, type Skill, type SkillScope } from './skill';

/** A SKILL.md larger than this (bytes) is left out with a notice: it is instructions, not data. */
const MAX_SKILL_FILE_BYTES = 1024 * 1024;

/** Project skill folders, in precedence order, inside each folder from the workspace up to the git root. */
const PROJECT_SKILL_DIRS = ['.codey/skills', '.agents/skills', '.claude/skills'];

/** A folder that holds one skill per subfolder. */
export interface SkillRoot {
  dir: string;
  scope: SkillScope;
}

/** The skills found, in precedence order, and one-line notices for the person. */
export interface SkillSet {
  skills: Skill[];
  notices: string[];
}

/**
 * The folders skills are looked for in, highest precedence first (README, "Skills"):
 * `.codey/skills`, `.agents/skills` and `.claude/skills` of the workspace, then of each folder above
 * it up to the git root; then `$XDG_CONFIG_HOME/codey/skills`, `~/.agents/skills` and
 * `~/.claude/skills`. Folders that do not exist are listed too; discovery skips them.
 */
export function skillRoots(places: PlacesInput): SkillRoot[] {
  const roots: SkillRoot[] = [];
  for (const folder of foldersUpToRoot(places.workspace, places.gitRoot)) {
    for (const sub of PROJECT_SKILL_DIRS) roots.push({ dir: path.join(folder, sub), scope: 'project' });
  }
  const config = codeyConfigDir(places.env);
  if (config) roots.push({ dir: path.join(config, 'skills'), scope: 'user' });
  const home = absoluteEnv(places.env).HOME;
  if (home) {
    roots.push({ dir: path.join(home, '.agents', 'skills'), scope: 'user' });
    roots.push({ dir: path.join(home, '.claude', 'skills'), scope: 'user' });
  }
  return roots;
}

/**
 * Find and parse every skill (a folder `NAME/` holding `SKILL.md`) under {@link skillRoots}. Within a
 * folder, skills come in name order. The same name found twice: the first wins and a notice names
 * the one left out; the same folder reached twice (a symlink, or the workspace being HOME) counts
 * once. An invalid skill is a notice naming its file and the problem, and the others load. A
 * project skill's SKILL.md is read only where it resolves inside the repository (the git root, or the
 * workspace without one), so a link cannot bring in a file from elsewhere on the disk. Reads the file
 * system only; never throws. A repository's skills past `PROJECT_LISTING_BUDGET` (budget.ts) characters of
 * names and descriptions are left out, with one notice.
 */
export async function discoverSkills(places: PlacesInput): Promise<SkillSet> {
  const skills: Skill[] = [];
  const notices: string[] = [];
  const byName = new Map<string, Skill>();
  const seenRoots = new Set<string>();
  const seenFiles = new Set<string>();
  const show = (p: string) => shownPath(p, places.workspace, places.env);
  const repoRoot = projectRoot(places);
  const roots = skillRoots(places);
  const userRoots = new Set(
    await Promise.all(roots.filter((r) => r.scope === 'user').map((r) => realpath(r.dir).catch(() => ''))),
  );

  for (const root of roots) {
    const realRoot = await realpath(root.dir).catch(() => undefined);
    if (!realRoot || seenRoots.has(realRoot)) continue;
    if (root.scope === 'project' && !(await isInsideReal(realRoot, repoRoot))) {
      // A link to one of the person's own skill folders loads from there, as theirs.
      if (!userRoots.has(realRoot)) {
        notices.push(
          `codey: skills folder ${show(root.dir)} is a link to a folder outside the repository; skipped`,
        );
      }
      continue;
    }
    seenRoots.add(realRoot);
    let entries: string[];
    try {
      entries = (await readdir(root.dir)).sort();
    } catch (err) {
      notices.push(`codey: skills folder ${show(root.dir)} cannot be read (${errCode(err)}); skipped`);
      continue;
    }
    for (const entry of entries) {
      if (entry.startsWith('.')) continue;
      const dir = path.join(root.dir, entry);
      const file = path.join(dir, 'SKILL.md');
      const st = await stat(file).catch(() => undefined);
      if (!st?.isFile()) continue; // not a skill folder (or not a folder at all)
      const real = await realpath(file).catch(() => file);
      if (seenFiles.has(real)) continue;
      seenFiles.add(real);
      const say = (problem: string) => notices.push(`codey: skill ${show(file)}: ${problem}`);
      const read = await readTextFile(file, {
        maxBytes: MAX_SKILL_FILE_BYTES,
        ...(root.scope === 'project' && { inside: repoRoot }),
      });
      if (!('text' in read)) {
        say(`${refusalText(read, MAX_SKILL_FILE_BYTES)}; skipped`);
        continue;
      }
      const text = read.text;
      await frontmatterReady(text);
      const parsed = parseSkill(text, { dir, file, folderName: entry, scope: root.scope, root: root.dir });
      for (const p of parsed.problems) say(p);
      const skill = parsed.skill;
      if (!skill) continue;
      const first = byName.get(skill.name);
      if (first) {
        say(`skill "${skill.name}" is already loaded from ${show(first.file)}; this one is left out`);
        continue;
      }
      byName.set(skill.name, skill);
      skills.push(skill);
    }
  }
  const { kept, leftOut } = withinListingBudget(skills);
  if (leftOut.length) notices.push(leftOutNotice('skills', leftOut));
  return { skills: kept, notices };
}

function errCode(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (err instanceof Error ? err.message : String(err));
}

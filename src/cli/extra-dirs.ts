/**
 * What `--add-dir` (and `additionalDirectories`, `add_dirs`) and `--append-system-prompt` bring to a
 * session: more folders for the file tools, and the lines the system prompt gains for them.
 */
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ProjectContext } from './project-context';

/**
 * The folders of `dirs` (relative ones from `cwd`), symlinks resolved; one that is not a folder is
 * left out with a notice. The workspace itself and repeats are dropped.
 */
export function extraRootsOf(dirs: readonly string[], cwd: string, notices: string[]): string[] {
  const out = new Set<string>();
  const workspace = realpathSync(cwd);
  for (const dir of dirs) {
    let real: string;
    try {
      real = realpathSync(resolve(cwd, dir));
      if (!statSync(real).isDirectory()) throw new Error('not a folder');
    } catch {
      notices.push(`codey: the folder ${dir} (add_dirs, --add-dir) is not a folder codey can open; left out`);
      continue;
    }
    if (real !== workspace) out.add(real);
  }
  return [...out];
}

/**
 * `project` with the system prompt's instructions section followed by the extra folders the file
 * tools may use and the person's appended text, in that order; `project` itself when there is none.
 */
export function withPromptExtras(
  project: ProjectContext,
  roots: readonly string[],
  append: string | undefined,
): ProjectContext {
  const parts = [project.instructions];
  if (roots.length)
    parts.push(
      `Other folders the file tools may read and change (give their absolute paths): ${roots.join(', ')}`,
    );
  if (append?.trim()) parts.push(append.trim());
  const instructions = parts.filter(Boolean).join('\n\n');
  return instructions === project.instructions ? project : { ...project, instructions };
}

import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/**
 * Why `cwd` is too broad a workspace, or undefined when it is fine: the root of the file system or
 * the person's home folder (`HOME`, else the OS's), where every file they own is in reach of the
 * tools and of the model's search. One line, for a notice or a question.
 */
export function broadWorkspace(cwd: string, env: Record<string, string | undefined>): string | undefined {
  const dir = real(cwd);
  if (dirname(dir) === dir) return `the workspace is the root folder ${dir}`;
  if (dir === real(env.HOME || homedir())) return `the workspace is your home folder ${dir}`;
  return undefined;
}

/** The notice for a broad workspace (one line, says what to do instead). */
export function broadWorkspaceNotice(why: string): string {
  return `codey: ${why}: every file in it is in reach of the tools; cd into a project folder and start codey there`;
}

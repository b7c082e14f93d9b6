/** `/worktree`: moving a session into a git worktree of its repository and back (see ./worktree). */
import { realpath } from 'node:fs/promises';
import { basename } from 'node:path';
import type { WorktreeInfo, WorktreeMove } from '../tui/commands/session-port';
import { moveSession, type CodeySession } from './session';
import { createWorktree, listWorktrees, uncommittedIn } from './worktree';

/**
 * Create a git worktree on a new branch (see {@link createWorktree}, which also lists the errors)
 * and move the session there; when the codey worktree NAME exists already, move back into it; with
 * NAME `main`, move back to `origin`, the workspace the session started in:
 * either way `toolsIn` builds the tools again for the new root, web tools included, and the system
 * prompt names the new root. `uncommitted` counts the changed paths in the tree left behind.
 */
export async function moveToWorktree(s: CodeySession, origin: string, name: string): Promise<WorktreeMove> {
  const from = s.workspace;
  if (name === 'main') {
    if (from === origin) return { kind: 'stayed', path: from };
    const uncommitted = await uncommittedIn(from);
    await moveSession(s, origin);
    return { kind: 'returned', path: s.workspace, uncommitted };
  }
  // A codey worktree of that name exists (the session left it): go back into it.
  const known = (await listWorktrees(from).catch(() => [])).find(
    (t) => t.branch === `codey/${name}` && basename(t.path) === name,
  );
  if (known) {
    if ((await realpath(known.path).catch(() => known.path)) === from) return { kind: 'stayed', path: from };
    const uncommitted = await uncommittedIn(from);
    await moveSession(s, known.path);
    return { kind: 'entered', path: s.workspace, branch: known.branch, uncommitted };
  }
  const wt = await createWorktree(from, name);
  await moveSession(s, wt.path);
  return { kind: 'created', path: wt.path, branch: wt.branch, uncommitted: wt.uncommitted };
}

/** The worktrees of `workspace`'s repository (see {@link listWorktrees}), marking the current and `origin`. */
export async function worktreesOf(workspace: string, origin: string): Promise<WorktreeInfo[]> {
  const trees = await listWorktrees(workspace);
  const real = async (p: string) => realpath(p).catch(() => p);
  const [here, originReal] = await Promise.all([real(workspace), real(origin)]);
  return Promise.all(
    trees.map(async (t) => {
      const path = await real(t.path);
      return { ...t, current: path === here, main: path === originReal };
    }),
  );
}

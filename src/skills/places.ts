import path from 'node:path';
import { showHidden } from '../util/hidden-chars';

/** The part of the environment the skills layer reads; passed in, never taken from `process.env`. */
export interface PlacesEnv {
  HOME?: string;
  XDG_CONFIG_HOME?: string;
}

/** Where skills, instructions and commands are looked for. */
export interface PlacesInput {
  /** Workspace root, absolute. */
  workspace: string;
  /** Root of the git repository holding the workspace, absolute; absent outside a repository. */
  gitRoot?: string;
  env: PlacesEnv;
}

/**
 * `$XDG_CONFIG_HOME/codey` (default `$HOME/.config/codey`, per the XDG Base Directory spec);
 * undefined when neither variable is set, so nothing is read from a guessed home.
 */
export function codeyConfigDir(env: PlacesEnv): string | undefined {
  const { XDG_CONFIG_HOME: xdg, HOME: home } = absoluteEnv(env);
  if (xdg) return path.join(xdg, 'codey');
  return home ? path.join(home, '.config', 'codey') : undefined;
}

/**
 * `env` without relative values: the XDG Base Directory spec says to ignore a relative path, and a
 * relative HOME or XDG_CONFIG_HOME would make files of the current folder (a cloned repository)
 * count as the person's own.
 */
export function absoluteEnv(env: PlacesEnv): PlacesEnv {
  const ok = (v: string | undefined) => (v && path.isAbsolute(v) ? v : undefined);
  const home = ok(env.HOME);
  const xdg = ok(env.XDG_CONFIG_HOME);
  return { ...(home && { HOME: home }), ...(xdg && { XDG_CONFIG_HOME: xdg }) };
}

/**
 * The workspace and each folder above it up to the git root, nearest first. Without a git root, or
 * when the workspace is not inside it, only the workspace.
 */
export function foldersUpToRoot(workspace: string, gitRoot?: string): string[] {
  const ws = path.resolve(workspace);
  if (!gitRoot) return [ws];
  const root = path.resolve(gitRoot);
  const rel = path.relative(root, ws);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return [ws];
  const out = [ws];
  let dir = ws;
  while (dir !== root) {
    dir = path.dirname(dir);
    out.push(dir);
  }
  return out;
}

/**
 * A path as the person reads it in a notice: relative to the workspace when inside it, `~/…` under
 * HOME, absolute otherwise; each character that draws nothing or reorders text (an escape sequence
 * in a file name) written as its `\u` escape, so the notice names the file there really is.
 */
export function shownPath(file: string, workspace: string, env: PlacesEnv): string {
  return showHidden(placedPath(file, workspace, env)).text;
}

function placedPath(file: string, workspace: string, env: PlacesEnv): string {
  const rel = path.relative(workspace, file);
  if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel;
  if (env.HOME) {
    const home = path.relative(env.HOME, file);
    if (home && !home.startsWith('..') && !path.isAbsolute(home)) return `~/${home}`;
  }
  return file;
}

/**
 * The folder a repository's files must resolve inside (README, "Safety"): the git root, or the
 * workspace without one.
 */
export function projectRoot(places: PlacesInput): string {
  return places.gitRoot ?? places.workspace;
}

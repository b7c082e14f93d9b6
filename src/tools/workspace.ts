/**
 * The workspace path jail: every path a file tool takes (read_file, write_file, edit_file, glob,
 * grep) goes through {@link resolveInWorkspace}, so a path that resolves outside the workspace root,
 * lexically or through a symlink, is refused before anything is read or written.
 */
import { lstat, readdir, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from './tool';
import { capQuote } from './truncate';
import { withCommas } from '../util/text';

/** Symlink hops followed before giving up (Linux's own limit, MAXSYMLINKS, is 40). */
const MAX_LINK_HOPS = 40;

/** Longest path the system can name, in bytes, its terminating NUL included (Linux PATH_MAX). */
const MAX_PATH_BYTES = 4096;
/** Longest name of one path component, in bytes (NAME_MAX). */
const MAX_NAME_BYTES = 255;

/**
 * Refuse a path no file can have, before any file-system call: one of more than
 * {@link MAX_PATH_BYTES} bytes, or with a component of more than {@link MAX_NAME_BYTES}. Tools call
 * it from `check`, so such a call fails at once whatever the rules say; the jail calls it too.
 * Linear in the path's length; the message quotes at most 200 characters of it.
 * @throws {@link ToolError} (`invalid_arguments`) naming the limit and the path's size.
 */
export function checkPathLength(p: string): void {
  const bytes = Buffer.byteLength(p);
  const shown = JSON.stringify(capQuote(p));
  if (bytes >= MAX_PATH_BYTES) {
    throw new ToolError(
      `path ${shown} is ${withCommas(bytes)} bytes long; no file can have a path of ` +
        `${withCommas(MAX_PATH_BYTES)} bytes or more. Pass the path of an existing file`,
      'invalid_arguments',
    );
  }
  const long = p.split(/[\\/]/).find((part) => Buffer.byteLength(part) > MAX_NAME_BYTES);
  if (long !== undefined) {
    throw new ToolError(
      `path ${shown} has a component of ${withCommas(Buffer.byteLength(long))} bytes; ` +
        `no file or folder name can be longer than ${MAX_NAME_BYTES}. Pass the path of an existing file`,
      'invalid_arguments',
    );
  }
}

/** Whether `p` is `root` or lies below it; both absolute and normalised. */
export function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Paths whose change is always asked about, whatever rule allows the tool (`protected` in the approval
 * request): anything under a `.git` folder (hooks and config run code), `package.json` (its scripts run
 * under npm, and cosmiconfig reads codey's settings from it), codey's own project config files
 * (cosmiconfig's search places for `codey`), and what sets what codey does at its next start: anything
 * under a `.codey` or `.claude` folder (Claude Code's settings with their allow and deny rules, hooks
 * and MCP servers; skills, agents, commands) and `.mcp.json`, the same names the sandbox keeps
 * read-only. Names match in any case: on a case-insensitive file system (macOS, Windows)
 * `.GIT/config` is the real `.git/config`.
 */
export function isProtectedPath(p: string): boolean {
  const parts = path
    .normalize(p)
    .toLowerCase()
    .split(/[\\/]+/);
  const name = parts.at(-1) ?? '';
  if (parts.some((part) => part === '.git' || part === '.claude' || part === '.codey')) return true;
  if (name === '.mcp.json') return true;
  if (name === 'package.json') return true;
  if (/^\.codeyrc(\.(json|ya?ml|[cm]?js|ts))?$/.test(name)) return true;
  if (/^codey\.config\.([cm]?js|ts)$/.test(name)) return true;
  return parts.at(-2) === '.config' && /^codeyrc(\.(json|ya?ml|[cm]?js|ts))?$/.test(name);
}

/**
 * Refuse a change that reaches a protected path through another name (a symlink such as
 * `cfg -> .git/config`, which a cloned repository can ship): approval saw the name given, so the
 * change must be asked for again under the real path, where the protected rule applies.
 * @param given the path as the model wrote it; @param resolved the real path, relative to the root.
 * @throws {@link ToolError} naming both paths.
 */
export function refuseIndirectProtected(given: string, resolved: string): void {
  if (isProtectedPath(resolved) && !isProtectedPath(given)) {
    throw new ToolError(
      `${given} resolves to ${resolved}, a path codey changes only when asked for by its real name; call again with path "${resolved}" so the person is asked about it`,
      'refused',
    );
  }
}

/**
 * `abs` relative to `root` with `/` separators, `.` for the root itself (what the model reads); a
 * path outside `root` (in a skill's folder, see {@link resolveInWorkspace}) stays absolute.
 */
export function displayPath(root: string, abs: string): string {
  if (!isInside(root, abs)) return abs;
  const rel = path.relative(root, abs);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}

/**
 * A path argument as a call shows it and rules match it: normalized, and relative to `cwd` when it is
 * an absolute path inside it (`/ws/src/a.ts` → `src/a.ts`), so "always allow" remembers one form.
 */
export function callPath(p: string, cwd?: string): string {
  // A path no file can have is shown as given: `check` refuses it, and normalizing megabytes is slow.
  if (p.length >= MAX_PATH_BYTES) return p;
  const n = path.normalize(p);
  return cwd && path.isAbsolute(n) && isInside(cwd, n) ? displayPath(cwd, n) : n;
}

function errnoCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined;
}

/**
 * Resolve `p` the way the OS would, also for paths that do not exist yet: the deepest existing
 * ancestor is resolved with realpath and the missing tail is appended; a dangling symlink is followed
 * by hand, so writing through it cannot land outside the root. `shown` names the path in errors.
 * A missing path is walked down from the top, one `lstat` a component until the first missing one,
 * so the work grows with the path's length, not with its square.
 * @throws {@link ToolError} "symbolic link loop at PATH" for links that point back at each other (ELOOP).
 */
async function resolveReal(abs: string, shown: string): Promise<string> {
  let cur = abs;
  for (let hops = 0; hops <= MAX_LINK_HOPS; hops++) {
    try {
      return await realpath(cur);
    } catch (err) {
      const code = errnoCode(err);
      if (code === 'ELOOP') throw linkLoop(shown);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
    }
    const found = await deepestExisting(cur, shown);
    if (found.danglingTarget === undefined) return found.path;
    cur = found.danglingTarget;
  }
  throw linkLoop(shown);
}

/**
 * Walk `abs` (absolute, normalised, known not to resolve) down from the top: the real path of its
 * deepest existing ancestor with the missing rest appended, or, when a dangling symbolic link is met
 * on the way, the path to continue from (its target with the rest appended).
 */
async function deepestExisting(
  abs: string,
  shown: string,
): Promise<{ path: string; danglingTarget?: undefined } | { path?: undefined; danglingTarget: string }> {
  const { root } = path.parse(abs);
  const parts = abs.slice(root.length).split(path.sep).filter(Boolean);
  let real = root;
  for (let i = 0; i < parts.length; i++) {
    const next = path.join(real, parts[i]);
    const st = await lstat(next).catch(() => undefined);
    if (!st) return { path: path.join(next, ...parts.slice(i + 1)) };
    if (st.isSymbolicLink()) {
      const target = await realpath(next).catch((err: unknown) => {
        if (errnoCode(err) === 'ELOOP') throw linkLoop(shown);
        return undefined;
      });
      if (target === undefined) {
        // A dangling link: continue from its target.
        const to = path.resolve(real, await readlink(next));
        return { danglingTarget: path.join(to, ...parts.slice(i + 1)) };
      }
      real = target;
    } else if (!st.isDirectory()) {
      return { path: path.join(next, ...parts.slice(i + 1)) };
    } else real = next;
  }
  return { path: real };
}

/** The error for a path whose symbolic links point back at each other (ELOOP). */
function linkLoop(shown: string): ToolError {
  return new ToolError(
    `symbolic link loop at ${shown}: its links point back at each other; fix or remove them with bash`,
    'io',
  );
}

/**
 * Resolve a path the model gave (relative to the workspace root, or absolute inside it) to an
 * absolute path with symlinks resolved, which the caller then reads or writes.
 *
 * @param root Workspace root, absolute (ToolContext.cwd).
 * @param p The path as the model wrote it.
 * @param readRoots Folders outside the root that a read may also resolve into (ToolContext.readRoots:
 *   the skills' folders; absolute, symlinks resolved). Only read tools pass them; writes never do.
 * @param roots More folders that are jailed as the root is, for reads and writes (ToolContext.roots:
 *   `--add-dir`; absolute, symlinks resolved).
 * @returns The resolved absolute path (it may not exist yet).
 * @throws ToolError when the path resolves outside the root ("path ../x is outside the workspace /w;
 *   only files inside it can be read or changed"), naming the symlink target when a link led there.
 */
export async function resolveInWorkspace(
  root: string,
  p: string,
  readRoots: readonly string[] = [],
  roots: readonly string[] = [],
): Promise<string> {
  checkPathLength(p);
  if (p.includes('\0'))
    throw new ToolError(
      `path ${JSON.stringify(capQuote(p))} contains a NUL byte; pass a plain path`,
      'invalid_arguments',
    );
  const lexical = path.resolve(root, p);
  checkPathLength(lexical);
  const realRoot = await realpath(root);
  const outside = (): ToolError =>
    new ToolError(
      `path ${capQuote(p)} is outside the workspace ${realRoot}; only files inside it can be read or changed`,
      'outside_workspace',
    );
  const lexicalOutside = !isInside(path.resolve(root), lexical) && !isInside(realRoot, lexical);
  if (lexicalOutside && readRoots.length === 0 && roots.length === 0) throw outside();
  const resolved = await resolveReal(lexical, p);
  if ([...readRoots, ...roots].some((r) => isInside(r, resolved))) return resolved;
  if (lexicalOutside) throw outside();
  if (!isInside(realRoot, resolved)) {
    throw new ToolError(
      `path ${capQuote(p)} is outside the workspace ${realRoot} (it resolves to ${capQuote(resolved)} through a symbolic link); ` +
        'only files inside it can be read or changed',
      'outside_workspace',
    );
  }
  return resolved;
}

/**
 * Edit distance between two short strings (file names): insertions, deletions, substitutions and
 * swaps of neighbours each cost 1 (optimal string alignment), so "utl" → "util" and "sbu" → "sub" are 1.
 */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * A sibling of `abs` whose name is close to its name (same name in another case, same stem with
 * another extension, or a small edit distance), or undefined. Used for "did you mean …?".
 */
async function similarSibling(abs: string): Promise<string | undefined> {
  const dir = path.dirname(abs);
  const name = path.basename(abs);
  const entries = await readdir(dir).catch(() => [] as string[]);
  const stem = (n: string): string => path.parse(n).name;
  let best: { name: string; score: number } | undefined;
  for (const e of entries) {
    let score: number;
    if (e.toLowerCase() === name.toLowerCase()) score = 0;
    else if (stem(e) === stem(name)) score = 1;
    else score = 1 + editDistance(e.toLowerCase(), name.toLowerCase());
    const allowed = 1 + Math.max(2, Math.floor(name.length / 3));
    if (score <= allowed && (!best || score < best.score)) best = { name: e, score };
  }
  return best ? path.join(dir, best.name) : undefined;
}

/**
 * The message for a file that does not exist: "no file src/utl.ts; did you mean src/util.ts?", or a
 * pointer to glob when nothing close exists (and which folder is missing, when that is the cause).
 */
export async function missingFileMessage(root: string, abs: string): Promise<string> {
  const shown = displayPath(root, abs);
  const guess = await similarSibling(abs);
  if (guess) return `no file ${shown}; did you mean ${displayPath(root, guess)}?`;
  const dirExists = await lstat(path.dirname(abs)).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!dirExists) {
    return `no file ${shown}: the folder ${displayPath(root, path.dirname(abs))} does not exist; use glob to find the file`;
  }
  return `no file ${shown}; use glob to find files by name`;
}

import { realpath } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import type { LateInstruction, LateInstructionSource } from '../util/shapes';
import { normalizeText } from './frontmatter';
import {
  cutMarker,
  FOLDER_INSTRUCTION_NAMES,
  loadCandidate,
  MAX_INSTRUCTIONS_BYTES,
  type LoadState,
  type PathRule,
} from './instructions';
import { gitRootOf } from '../util/git-root';
import { absoluteEnv, projectRoot, shownPath, type PlacesInput } from './places';

/** The project as a session root sees it (`lateInstructions`). */
interface RootView {
  root: string;
  real: string;
  seen: string[];
  rules: (PathRule & { match: (p: string) => boolean })[];
  show: (f: string) => string;
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** Folders whose instructions never load: another project's (a dependency's) or git's own. */
const FOREIGN_FOLDERS = new Set(['node_modules', '.git']);

/** `text` within {@link MAX_INSTRUCTIONS_BYTES}: cut after its last whole line that fits, with {@link cutMarker}. */
function capped(text: string): string {
  if (bytes(text) <= MAX_INSTRUCTIONS_BYTES) return text;
  const lines = text.split('\n');
  let size = 0;
  let kept = 0;
  while (kept < lines.length) {
    const add = bytes(lines[kept]) + 1;
    if (size + add + bytes(cutMarker(kept + 1)) > MAX_INSTRUCTIONS_BYTES) break;
    size += add;
    kept++;
  }
  return lines.slice(0, kept).join('\n') + cutMarker(kept);
}

/** A `paths:` glob as picomatch reads it: relative to the project root (`./src/**` and `/src/**` are `src/**`). */
const globOf = (p: string) => p.trim().replace(/^\.\//, '').replace(/^\/+/, '');

/**
 * The instructions that load when the model first reads or edits a file (README, "Coming from Claude
 * Code"), for the project of `places`: in each folder from the project root down to the file's
 * folder, {@link FOLDER_INSTRUCTION_NAMES}, and each of `start.pathRules` whose globs match the
 * file's path from the project root; each followed by its imports (as at start: inside the
 * repository only). Only files whose real path is inside the project root bring any, and none from
 * a `node_modules` or `.git` folder. Files read at start (`start.seen`, real paths) never come again;
 * a file that cannot be read is a notice once, and is not tried again in this session (the source
 * keeps what it tried). Reads through `util/read-text.ts`, inside the project root.
 */
export function lateInstructions(
  places: PlacesInput,
  start: { seen?: readonly string[]; pathRules?: readonly PathRule[] },
): LateInstructionSource {
  const startRoot = projectRoot(places);
  const home = absoluteEnv(places.env).HOME;
  const rules = (start.pathRules ?? []).map((r) => ({
    ...r,
    match: picomatch(r.paths.map(globOf).filter(Boolean), { dot: true }),
  }));
  const failed = new Set<string>();
  const views = new Map<string, Promise<RootView | undefined>>();
  const startReal = realpath(startRoot).catch(() => undefined);
  /**
   * The project as seen from `workspace`: its root, and the start's files and rules at the same
   * place under that root (a worktree holds its own copy of each; outside the root they stay).
   */
  const viewOf = (workspace: string): Promise<RootView | undefined> => {
    const root = workspace === places.workspace ? startRoot : (gitRootOf(workspace, home) ?? workspace);
    let view = views.get(root);
    if (!view) {
      view = (async () => {
        const real = await realpath(root).catch(() => undefined);
        const from = await startReal;
        if (!real || !from) return undefined;
        const moved = (p: string) => {
          const rel = path.relative(from, p);
          return rel.startsWith('..') || path.isAbsolute(rel) ? p : path.join(real, rel);
        };
        return {
          root,
          real,
          seen: (start.seen ?? []).map(moved),
          rules: rules.map((r) => ({ ...r, file: moved(r.file) })),
          show: (f: string) => shownPath(f, workspace, places.env),
        };
      })();
      views.set(root, view);
    }
    return view;
  };
  return {
    async find(touched, seen, keepsOut, workspace = places.workspace) {
      const none = { files: [], notices: [] };
      const view = await viewOf(workspace);
      if (!view) return none;
      const { root, real: realRoot, show } = view;
      const real = await realpath(touched).catch(() => path.resolve(touched));
      const rel = path.relative(realRoot, real);
      if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return none;
      const folders = path.dirname(rel) === '.' ? [] : path.dirname(rel).split(path.sep);
      if (folders.some((f) => FOREIGN_FOLDERS.has(f))) return none;
      const candidates: { file: string; covers: string }[] = [];
      for (let i = 0; i <= folders.length; i++) {
        const folder = path.join(realRoot, ...folders.slice(0, i));
        for (const name of FOLDER_INSTRUCTION_NAMES)
          candidates.push({ file: path.join(folder, name), covers: `files under ${folder}` });
      }
      const posix = rel.split(path.sep).join('/');
      for (const r of view.rules)
        if (r.match(posix)) candidates.push({ file: r.file, covers: `files matching ${r.paths.join(', ')}` });
      const known = new Set([...view.seen, ...seen, ...failed]);
      const files: LateInstruction[] = [];
      const notices: string[] = [];
      for (const c of candidates) {
        const state: LoadState = {
          files: [],
          notices: [],
          skipped: [],
          seen: known,
          show,
          keepsOut,
          ...(home && { home }),
        };
        await loadCandidate({ file: c.file, inside: root, imports: root }, state);
        notices.push(
          ...state.notices,
          ...state.skipped.map((s) => `codey: instructions import ${s}; left out`),
        );
        const read = new Set<string>();
        for (const [i, f] of state.files.entries()) {
          const at = await realpath(f.path).catch(() => f.path);
          read.add(at);
          const text = normalizeText(f.content).trimEnd();
          if (text.trim() === '') continue;
          const covers = i === 0 ? c.covers : `${c.covers} (imported through ${c.file})`;
          files.push({ path: at, text: capped(text), covers });
        }
        // What was tried and gave nothing (unreadable, empty) is not tried again.
        for (const p of known) if (!read.has(p) && !seen.has(p)) failed.add(p);
      }
      return { files, notices };
    },
  };
}

import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { readTextFile, refusalText } from '../util/read-text';
import { frontmatterReady, normalizeText, splitFrontmatter } from './frontmatter';
import { atReferences } from './markdown-code';
import {
  absoluteEnv,
  codeyConfigDir,
  foldersUpToRoot,
  type PlacesInput,
  projectRoot,
  shownPath,
} from './places';

/** Cap on the whole instructions section of the system prompt, in bytes of UTF-8. */
export const MAX_INSTRUCTIONS_BYTES = 64 * 1024;

/** The heading of the section in the system prompt. */
const INSTRUCTIONS_HEADING = '# Project instructions';

/** One instructions file, read. */
export interface InstructionFile {
  /** Absolute path, as the prompt names it. */
  path: string;
  content: string;
}

/** The instructions section and what went into it. */
export interface ProjectInstructions {
  /** The section for the system prompt; `''` when there are no instructions (the prompt then has none). */
  text: string;
  /** The files whose text is in `text` (whole or cut), in prompt order. */
  files: string[];
  /** One line each for the person: what the cap cut or left out. */
  notices: string[];
  /** Files found but not loaded at start, each with why (for `--verbose` and `/status`). */
  skipped?: string[];
  /** Real paths of every file read at start, cut by the cap or not: a file that loads later is none of them. */
  seen?: readonly string[];
  /** The `paths:` rules, which load when the model first reads or edits a file they match. */
  pathRules?: readonly PathRule[];
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

const INTRO =
  "The files below hold instructions for working here: the person's own first, then the repository's " +
  'from its root down to the workspace, each followed by the files it imports. Follow them. Where two ' +
  'disagree, the later one wins: it is nearer to the work.';

/** Most bytes of one instructions file codey reads (1 MiB); a larger file is left out with a notice. */
const MAX_INSTRUCTION_FILE_BYTES = 1024 * 1024;

/** How deep `@path` imports are followed (an import of an import … five levels). */
const MAX_IMPORT_DEPTH = 5;

/** Where a candidate file may import from, and where it must resolve. */
export interface Candidate {
  file: string;
  /** The folder the file must resolve inside (a repository's file: the repository); absent: anywhere. */
  inside?: string;
  /** The folder its imports must resolve inside: the repository, or the person's home. */
  imports?: string;
}

/** The names of the instructions files codey reads in each folder of a repository, in prompt order. */
export const FOLDER_INSTRUCTION_NAMES = ['CLAUDE.md', '.claude/CLAUDE.md', 'AGENTS.md', 'CLAUDE.local.md'];

/** A `.claude/rules/*.md` file with `paths:` frontmatter: it loads when the model reads or edits a file its globs match. */
export interface PathRule {
  /** Absolute path of the rule file. */
  file: string;
  /** Its globs, relative to the project root, as written. */
  paths: string[];
}

/** What loading candidates collects: the files read, notices, what was skipped, and the real paths already read. */
export interface LoadState {
  files: InstructionFile[];
  notices: string[];
  skipped: string[];
  /** Real paths (links resolved) of every file read so far: the same file reached again is not read twice. */
  seen: Set<string>;
  home?: string;
  show: (file: string) => string;
  /** True for a file not to read (a deny rule keeps it out); default none. */
  keepsOut?: (abs: string) => boolean;
}

/**
 * Read `c` and then its `@path` imports outside code (relative to it, `~/` for home, at most
 * {@link MAX_IMPORT_DEPTH} deep, cycles cut by `state.seen`) into `state.files`, each under its own
 * path; an import resolves only inside the importing file's `inside`. A missing file or one that is
 * not a regular file is skipped quietly; one outside `inside`, too large or unreadable is a notice
 * (an import outside is listed in `state.skipped` instead). A file under a `rules` folder loads
 * without its frontmatter. Never throws.
 */
export async function loadCandidate(c: Candidate, state: LoadState, depth = 0, quiet = false): Promise<void> {
  const st = await stat(c.file).catch(() => undefined);
  if (!st?.isFile()) return;
  const real = await realpath(c.file).catch(() => c.file);
  if (state.seen.has(real) || state.keepsOut?.(real)) return;
  state.seen.add(real);
  const read = await readTextFile(c.file, {
    maxBytes: MAX_INSTRUCTION_FILE_BYTES,
    ...(c.inside !== undefined && { inside: c.inside }),
  });
  if (!('text' in read)) {
    if (!quiet || read.why !== 'outside')
      state.notices.push(
        `codey: instructions ${state.show(c.file)}: ${refusalText(read, MAX_INSTRUCTION_FILE_BYTES)}; left out`,
      );
    else
      state.skipped.push(
        `${state.show(c.file)} (an import outside ${c.inside === state.home ? 'your home' : 'the repository'})`,
      );
    return;
  }
  const rule = c.file.includes(`${path.sep}rules${path.sep}`);
  if (rule) await frontmatterReady(read.text);
  const text = rule ? ruleBody(read.text) : read.text;
  state.files.push({ path: c.file, content: text });
  if (depth >= MAX_IMPORT_DEPTH) return;
  for (const ref of atReferences(text)) {
    const target = ref.startsWith('~/')
      ? state.home && path.join(state.home, ref.slice(2))
      : path.resolve(path.dirname(c.file), ref);
    if (target)
      await loadCandidate(
        { file: target, ...(c.inside !== undefined && { inside: c.inside }) },
        state,
        depth + 1,
        true,
      );
  }
}

/**
 * The instructions files, in prompt order: the person's own (`~/.claude/CLAUDE.md`, then
 * `$XDG_CONFIG_HOME/codey/AGENTS.md`), then in the git root and each folder down to the workspace
 * {@link FOLDER_INSTRUCTION_NAMES}, then the root's `.claude/rules/*.md` without `paths:`
 * frontmatter (their bodies). Without a git root, only the workspace folder. The same file reached
 * twice (a link `CLAUDE.md -> AGENTS.md`) loads once. Each file's imports follow it
 * ({@link loadCandidate}); a repository's file imports only inside the repository, the person's only
 * inside their home. A repository's file that resolves outside the repository
 * (`AGENTS.md -> /proc/self/environ`), one over {@link MAX_INSTRUCTION_FILE_BYTES} and one that cannot
 * be read are left out with a notice (`show` formats its path). `seen`: the real paths of every file
 * read (for the files that load later); `pathRules`: the rules held for later. Never throws.
 */
export async function findInstructionFiles(
  places: PlacesInput,
  show: (file: string) => string = (f) => f,
): Promise<{
  files: InstructionFile[];
  notices: string[];
  skipped: string[];
  seen: Set<string>;
  pathRules: PathRule[];
}> {
  const candidates: Candidate[] = [];
  const home = absoluteEnv(places.env).HOME;
  if (home) candidates.push({ file: path.join(home, '.claude', 'CLAUDE.md'), imports: home });
  const config = codeyConfigDir(places.env);
  if (config) candidates.push({ file: path.join(config, 'AGENTS.md'), imports: home ?? config });
  const repoRoot = projectRoot(places);
  for (const folder of foldersUpToRoot(places.workspace, places.gitRoot).reverse()) {
    for (const name of FOLDER_INSTRUCTION_NAMES)
      candidates.push({ file: path.join(folder, name), inside: repoRoot, imports: repoRoot });
  }
  const state: LoadState = {
    files: [],
    notices: [],
    skipped: [],
    seen: new Set(),
    show,
    ...(home && { home }),
  };
  for (const c of candidates) await loadCandidate(c, state);
  const pathRules: PathRule[] = [];
  for (const rule of await ruleFiles(path.join(repoRoot, '.claude', 'rules'))) {
    const text = await readTextFile(rule, { maxBytes: MAX_INSTRUCTION_FILE_BYTES, inside: repoRoot });
    if ('text' in text) await frontmatterReady(text.text);
    const paths = 'text' in text ? pathsOf(text.text) : undefined;
    if (paths) {
      pathRules.push({ file: rule, paths });
      continue;
    }
    await loadCandidate({ file: rule, inside: repoRoot, imports: repoRoot }, state);
  }
  return { files: state.files, notices: state.notices, skipped: state.skipped, seen: state.seen, pathRules };
}

/** The `*.md` files under a rules folder and its sub-folders, in path order; none when it is missing. */
async function ruleFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.md') && !e.name.startsWith('.'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** A rule file's `paths:` frontmatter (globs), or undefined when it applies always. */
function pathsOf(text: string): string[] | undefined {
  const fm = splitFrontmatter(text);
  if (fm.kind !== 'ok' || fm.data.paths === undefined || fm.data.paths === null) return undefined;
  const p = fm.data.paths;
  return Array.isArray(p)
    ? p.map(String)
    : String(p)
        .split(',')
        .map((x) => x.trim());
}

/** A rule file's text without its frontmatter. */
function ruleBody(text: string): string {
  const fm = splitFrontmatter(text);
  return fm.kind === 'ok' ? fm.body.replace(/^\n+/, '') : text;
}

/** The line that ends an instructions file cut after `kept` lines, telling the model where to read on. */
export const cutMarker = (kept: number): string =>
  `\n[… cut here: the rest of this file is over codey's ${MAX_INSTRUCTIONS_BYTES / 1024} KiB limit for instructions; read it with read_file from line ${kept + 1}]`;

/**
 * Assemble the instructions section (pure): {@link INSTRUCTIONS_HEADING}, a paragraph saying the
 * order and that the later (nearer) file wins, then each non-empty file under a `## <path>` heading,
 * in the order given. At most {@link MAX_INSTRUCTIONS_BYTES} in all: the file that passes the cap is
 * cut after its last whole line that fits, with a line telling the model where to read on, and the
 * files after it are left out and named at the end; a notice names what was cut. `show` formats a
 * path for the notices (default: as given).
 */
export function assembleInstructions(
  input: readonly InstructionFile[],
  show: (file: string) => string = (f) => f,
): ProjectInstructions {
  const files = input
    .map((f) => ({ path: f.path, content: normalizeText(f.content).trimEnd() }))
    .filter((f) => f.content.trim() !== '');
  if (files.length === 0) return { text: '', files: [], notices: [] };

  const head = `${INSTRUCTIONS_HEADING}\n\n${INTRO}`;
  const section = (f: { path: string }, content: string) => `\n\n## ${f.path}\n\n${content}`;
  const leftOutLine = (rest: readonly { path: string }[]) =>
    rest.length
      ? `\n\n(Left out, over codey's ${MAX_INSTRUCTIONS_BYTES / 1024} KiB limit for instructions: ${rest.map((f) => f.path).join(', ')}. Read them with read_file when they matter.)`
      : '';

  let text = head;
  const used: string[] = [];
  for (let i = 0; i < files.length; i++) {
    const f = files[i];
    const whole = section(f, f.content);
    if (bytes(text) + bytes(whole) + bytes(leftOutLine(files.slice(i + 1))) <= MAX_INSTRUCTIONS_BYTES) {
      text += whole;
      used.push(f.path);
      continue;
    }
    // This file passes the cap: keep its whole lines that fit, then name the rest.
    const lines = f.content.split('\n');
    const after = files.slice(i + 1);
    let kept = 0;
    let size = bytes(text) + bytes(section(f, '')) + bytes(leftOutLine(after));
    while (kept < lines.length) {
      const add = bytes(lines[kept]) + (kept > 0 ? 1 : 0);
      if (size + add + bytes(cutMarker(kept + 1)) > MAX_INSTRUCTIONS_BYTES) break;
      size += add;
      kept++;
    }
    if (kept > 0) {
      text += section(f, lines.slice(0, kept).join('\n') + cutMarker(kept)) + leftOutLine(after);
      used.push(f.path);
    } else {
      text += leftOutLine(files.slice(i));
    }
    const leftOut = (kept > 0 ? after : files.slice(i)).map((x) => show(x.path));
    const parts = [
      ...(kept > 0 ? [`${show(f.path)} cut after line ${kept} of ${lines.length}`] : []),
      ...(leftOut.length ? [`left out ${leftOut.join(', ')}`] : []),
    ];
    return {
      text,
      files: used,
      notices: [
        `codey: project instructions are over ${MAX_INSTRUCTIONS_BYTES / 1024} KiB: ${parts.join('; ')}`,
      ],
    };
  }
  return { text, files: used, notices: [] };
}

/**
 * {@link findInstructionFiles} then {@link assembleInstructions}, with notice paths shown relative
 * to the workspace or HOME. Call once per session: the text must stay identical so the cached
 * prompt prefix holds.
 */
export async function loadProjectInstructions(places: PlacesInput): Promise<ProjectInstructions> {
  const show = (f: string) => shownPath(f, places.workspace, places.env);
  const found = await findInstructionFiles(places, show);
  const assembled = assembleInstructions(found.files, show);
  return {
    ...assembled,
    notices: [...found.notices, ...assembled.notices],
    skipped: found.skipped,
    seen: [...found.seen],
    pathRules: found.pathRules,
  };
}

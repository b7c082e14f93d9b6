import { stat } from 'node:fs/promises';
import path from 'node:path';
import { readTextFile, refusalText } from '../util/read-text';
import { normalizeText } from './frontmatter';
import { codeyConfigDir, foldersUpToRoot, type PlacesInput, projectRoot, shownPath } from './places';

/** Cap on the whole instructions section of the system prompt, in bytes of UTF-8. */
export const MAX_INSTRUCTIONS_BYTES = 32 * 1024;

/** The heading of the section in the system prompt. */
export const INSTRUCTIONS_HEADING = '# Project instructions';

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
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

const INTRO =
  "The files below hold instructions for working here: the person's own first, then the repository's " +
  'from its root down to the workspace. Follow them. Where two disagree, the later one wins: it is ' +
  'nearer to the work.';

/** Most bytes of one instructions file codey reads (1 MiB); a larger file is left out with a notice. */
export const MAX_INSTRUCTION_FILE_BYTES = 1024 * 1024;

/**
 * The instructions files, in prompt order: `$XDG_CONFIG_HOME/codey/AGENTS.md` (the person's own),
 * then the git root's and each folder's down to the workspace; in each folder `AGENTS.md`, or
 * `CLAUDE.md` where it has none. Without a git root, only the workspace folder. Missing files and
 * what is not a regular file are skipped. A repository's file that resolves outside the repository
 * (`AGENTS.md -> /proc/self/environ`), one over {@link MAX_INSTRUCTION_FILE_BYTES} and one that cannot
 * be read are left out with a notice (`show` formats its path). Never throws.
 */
export async function findInstructionFiles(
  places: PlacesInput,
  show: (file: string) => string = (f) => f,
): Promise<{ files: InstructionFile[]; notices: string[] }> {
  const candidates: { names: string[]; inside?: string }[] = [];
  const config = codeyConfigDir(places.env);
  if (config) candidates.push({ names: [path.join(config, 'AGENTS.md')] });
  const repoRoot = projectRoot(places);
  for (const folder of foldersUpToRoot(places.workspace, places.gitRoot).reverse()) {
    candidates.push({
      names: [path.join(folder, 'AGENTS.md'), path.join(folder, 'CLAUDE.md')],
      inside: repoRoot,
    });
  }
  const files: InstructionFile[] = [];
  const notices: string[] = [];
  for (const { names, inside } of candidates) {
    for (const file of names) {
      const st = await stat(file).catch(() => undefined);
      if (!st?.isFile()) continue;
      const read = await readTextFile(file, {
        maxBytes: MAX_INSTRUCTION_FILE_BYTES,
        ...(inside !== undefined && { inside }),
      });
      if ('text' in read) files.push({ path: file, content: read.text });
      else
        notices.push(
          `codey: instructions ${show(file)}: ${refusalText(read, MAX_INSTRUCTION_FILE_BYTES)}; left out`,
        );
      break; // a folder's AGENTS.md, when present, is its only file
    }
  }
  return { files, notices };
}

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
    const marker = (n: number) =>
      `\n[… cut here: the rest of this file is over codey's ${MAX_INSTRUCTIONS_BYTES / 1024} KiB limit for instructions; read it with read_file from line ${n + 1}]`;
    let kept = 0;
    let size = bytes(text) + bytes(section(f, '')) + bytes(leftOutLine(after));
    while (kept < lines.length) {
      const add = bytes(lines[kept]) + (kept > 0 ? 1 : 0);
      if (size + add + bytes(marker(kept + 1)) > MAX_INSTRUCTIONS_BYTES) break;
      size += add;
      kept++;
    }
    if (kept > 0) {
      text += section(f, lines.slice(0, kept).join('\n') + marker(kept)) + leftOutLine(after);
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
  return { ...assembled, notices: [...found.notices, ...assembled.notices] };
}

import type * as Yaml from 'yaml';
import { withCommas } from '../util/text';

/** The `yaml` package (281 KB of code): loaded by {@link frontmatterReady} for the first frontmatter. */
let yaml: typeof Yaml | undefined;

/** A Markdown file split at its YAML frontmatter. */
export type Frontmatter =
  /** No `---` first line: the whole file is body. */
  | { kind: 'none'; body: string }
  /** Parsed frontmatter: `data` is the YAML mapping; `bodyLine` is the 1-based file line the body starts on. */
  | { kind: 'ok'; data: Record<string, unknown>; body: string; bodyLine: number }
  /** Frontmatter that cannot be used; `problem` is one line for a notice; `body` is what follows it, if found. */
  | { kind: 'bad'; problem: string; body?: string; bodyLine?: number };

/** Most bytes of YAML between the `---` lines that codey parses; a larger frontmatter is refused unparsed. */
const MAX_FRONTMATTER_BYTES = 16 * 1024;

/** Text without a byte-order mark and with `\r\n` as `\n`. */
export function normalizeText(text: string): string {
  return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, '\n');
}

/** Whether normalized text's first line is a frontmatter's opening `---`. */
const opens = (firstLine: string | undefined): boolean => firstLine?.trimEnd() === '---';

/**
 * Makes {@link splitFrontmatter} ready for `text`: loads the YAML parser (once) when `text` opens
 * with a frontmatter, and does nothing for a file without one, so a project without skills, agents,
 * commands or rules with a frontmatter never loads it. Every caller awaits it before splitting.
 */
export async function frontmatterReady(text: string): Promise<void> {
  if (yaml || !opens(normalizeText(text).split('\n', 1)[0])) return;
  // A CommonJS package: its exports come as `default` from the built chunk (and from Node).
  const mod = (await import('yaml')) as typeof Yaml & { default?: typeof Yaml };
  yaml = mod.default ?? mod;
}

/**
 * Split `text` (a SKILL.md or a command file) at its frontmatter: a first line `---`, YAML, and a
 * closing line `---` (or `...`). The YAML is parsed with the `yaml` package (YAML 1.2 core schema:
 * block scalars such as `|-`, quoted strings, nested maps); its errors become one-line problems with
 * the line number in the file, and a `: ` inside an unquoted value gets a hint to quote it. YAML over
 * {@link MAX_FRONTMATTER_BYTES} is `bad`, without a body, so the caller leaves the file out.
 * @throws Error when `text` has a frontmatter and {@link frontmatterReady} was not awaited for it
 *   (a caller's mistake, never the file's).
 */
export function splitFrontmatter(text: string): Frontmatter {
  const src = normalizeText(text);
  const lines = src.split('\n');
  if (!opens(lines[0])) return { kind: 'none', body: src };
  if (!yaml) throw new Error('splitFrontmatter: await frontmatterReady(text) first');
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === '---' || l.trimEnd() === '...'));
  if (end < 0) return { kind: 'bad', problem: 'the frontmatter has no closing --- line' };
  const body = lines.slice(end + 1).join('\n');
  const bodyLine = end + 2;
  const yamlBytes = Buffer.byteLength(lines.slice(1, end).join('\n'), 'utf8');
  if (yamlBytes > MAX_FRONTMATTER_BYTES) {
    // Not parsed at all: the YAML parser takes seconds on some large hostile inputs (deep nesting,
    // thousands of anchors), and a real frontmatter is a few short fields.
    return {
      kind: 'bad',
      problem: `the frontmatter is ${withCommas(yamlBytes)} bytes, over the ${MAX_FRONTMATTER_BYTES / 1024} KiB codey parses`,
    };
  }
  let data: unknown;
  try {
    data = yaml.parse(lines.slice(1, end).join('\n'), { uniqueKeys: true });
  } catch (err) {
    return { kind: 'bad', problem: yamlProblem(err), body, bodyLine };
  }
  if (data === null || data === undefined) return { kind: 'ok', data: {}, body, bodyLine };
  if (typeof data !== 'object' || Array.isArray(data)) {
    return {
      kind: 'bad',
      problem: 'the frontmatter is not a YAML mapping of keys to values',
      body,
      bodyLine,
    };
  }
  return { kind: 'ok', data: data as Record<string, unknown>, body, bodyLine };
}

/** One line naming what is wrong with the YAML, at its line in the file (the `---` is line 1). */
function yamlProblem(err: unknown): string {
  if (yaml && err instanceof yaml.YAMLParseError) {
    const line = err.linePos?.[0].line;
    const at = line ? ` at line ${line + 1}` : '';
    const what = err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    const hint = /Nested mappings|Unexpected flow/.test(what)
      ? '; put a value that holds ": " or starts with [ in quotes'
      : '';
    return `the frontmatter is not valid YAML${at} (${what})${hint}`;
  }
  const msg = err instanceof Error ? err.message : String(err);
  return `the frontmatter is not valid YAML (${msg.split('\n')[0]})`;
}

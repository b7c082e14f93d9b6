import { splitFrontmatter } from './frontmatter';
import { withCommas } from '../util/text';
import { quoted } from '../util/hidden-chars';

/**
 * Limits of the Agent Skills format (agentskills.io, "Specification"), in characters (code points).
 */
const SKILL_NAME_MAX = 64;
const SKILL_DESCRIPTION_MAX = 1024;
const SKILL_COMPATIBILITY_MAX = 500;

/** Where a skill was found: the repository's folders or the person's own. */
export type SkillScope = 'project' | 'user';

/** A loaded skill: its frontmatter, checked, and its instructions. */
export interface Skill {
  /** The frontmatter's `name` (the folder's without one), normalised by {@link normalSkillName}. */
  name: string;
  /** What it does and when to use it, at most {@link SKILL_DESCRIPTION_MAX} characters (longer ones are cut). */
  description: string;
  license?: string;
  /** Environment requirements, at most {@link SKILL_COMPATIBILITY_MAX} characters. */
  compatibility?: string;
  /** The `metadata` map; scalar values as strings. Empty when absent. */
  metadata: Record<string, string>;
  /** `allowed-tools`, split at spaces: advisory only, never a grant (see README, "Skills"). */
  allowedTools: string[];
  /** False with `disable-model-invocation: true`: left out of the `skill` tool, the person's only (absent: true). */
  modelInvocable?: boolean;
  /** False with `user-invocable: false`: no `/name` command, the model's only (absent: true). */
  userInvocable?: boolean;
  /** `argument-hint`, shown in completion of `/name` (a YAML list as `[a] [b]`). */
  argumentHint?: string;
  /** The skill's folder, absolute. */
  dir: string;
  /** Its SKILL.md, absolute. */
  file: string;
  /** The SKILL.md body without frontmatter and without leading blank lines. */
  body: string;
  /** The 1-based line of SKILL.md that {@link body} starts on (for `read_file offset=`). */
  bodyLine: number;
  scope: SkillScope;
  /** The skills folder it was found in, absolute (e.g. `/repo/.claude/skills`). */
  root: string;
}

/** What {@link parseSkill} makes of one SKILL.md: a skill (or none) and one-line problems. */
export interface ParsedSkill {
  skill?: Skill;
  /** Problems, each one line without the file name; the caller adds it. */
  problems: string[];
}

const chars = (s: string) => [...s].length;
const cut = (s: string, max: number) => [...s].slice(0, max).join('');

/**
 * The name a skill loads under: lower case, every run of other characters than `a-z` and `0-9` one
 * hyphen, none at either end, at most {@link SKILL_NAME_MAX} characters (accents are dropped, so
 * `Café Notes` is `cafe-notes`). `''` when nothing is left.
 */
function normalSkillName(raw: string): string {
  const flat = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return flat.slice(0, SKILL_NAME_MAX).replace(/-+$/, '');
}

/**
 * Parse and check one SKILL.md. Strict where the spec protects the person: no frontmatter, bad YAML,
 * a missing or empty description, and two `false` invocation fields leave the skill out. Lenient
 * where published skills differ: a name with capitals, spaces or other characters, or one other than
 * the folder's, loads under {@link normalSkillName} of it with one problem (no name: the folder's); a
 * description over 1024 characters loads, cut, with a problem; an over-long `compatibility` is cut
 * the same way; a malformed optional field is dropped with a problem and the skill still loads.
 */
export function parseSkill(
  text: string,
  where: { dir: string; file: string; folderName: string; scope: SkillScope; root: string },
): ParsedSkill {
  const fm = splitFrontmatter(text);
  if (fm.kind === 'none') {
    return { problems: ['no YAML frontmatter (a first line --- with name and description); skipped'] };
  }
  if (fm.kind === 'bad') return { problems: [`${fm.problem}; skipped`] };
  const d = fm.data;
  const problems: string[] = [];

  const written = d.name === undefined || d.name === null || d.name === '' ? undefined : d.name;
  if (written !== undefined && typeof written !== 'string' && typeof written !== 'number') {
    return { problems: ['name is not a string; skipped'] };
  }
  const given = written === undefined ? where.folderName : String(written);
  const name = normalSkillName(given);
  if (!name) return { problems: [`name ${quoted(given)} has no letter or digit; skipped`] };
  if (written === undefined) {
    if (name !== where.folderName) problems.push(`no name; loaded as "${name}" (its folder's name)`);
  } else if (name !== given) {
    problems.push(
      `name ${quoted(given)} is not 1–${SKILL_NAME_MAX} characters of a-z, 0-9 and single hyphens; loaded as "${name}"`,
    );
  } else if (name !== where.folderName) {
    problems.push(
      `name "${name}" differs from its folder's name ${quoted(where.folderName)}; loaded as "${name}"`,
    );
  }

  const rawDescription = d.description;
  if (typeof rawDescription !== 'string' && rawDescription !== undefined && rawDescription !== null) {
    return { problems: ['description is not a string; skipped'] };
  }
  const full = (rawDescription ?? '').trim();
  if (!full) return { problems: ['no description; skipped'] };
  let description = full;
  if (chars(full) > SKILL_DESCRIPTION_MAX) {
    description = cut(full, SKILL_DESCRIPTION_MAX);
    problems.push(
      `description is ${withCommas(chars(full))} characters, over the ${SKILL_DESCRIPTION_MAX} of the Agent Skills format; loaded, its first ${SKILL_DESCRIPTION_MAX} listed`,
    );
  }

  const license = optionalString(d.license, 'license', problems);
  let compatibility = optionalString(d.compatibility, 'compatibility', problems);
  if (compatibility && chars(compatibility) > SKILL_COMPATIBILITY_MAX) {
    problems.push(
      `compatibility is ${chars(compatibility)} characters, over ${SKILL_COMPATIBILITY_MAX}; cut`,
    );
    compatibility = cut(compatibility, SKILL_COMPATIBILITY_MAX);
  }
  const metadata = metadataMap(d.metadata, problems);
  const allowedTools = allowedToolsList(d['allowed-tools'], problems);
  const modelInvocable = !flag(d['disable-model-invocation'], 'disable-model-invocation', false, problems);
  const userInvocable = flag(d['user-invocable'], 'user-invocable', true, problems);
  if (!modelInvocable && !userInvocable) {
    return {
      problems: [
        ...problems,
        'disable-model-invocation: true and user-invocable: false leave no one to run it; skipped',
      ],
    };
  }
  const argumentHint = hintText(d['argument-hint'], problems);

  const lead = /^(?:[ \t]*\n)*/.exec(fm.body)?.[0] ?? '';
  const body = fm.body.slice(lead.length).trimEnd();
  return {
    skill: {
      name,
      description,
      ...(license !== undefined && { license }),
      ...(compatibility !== undefined && { compatibility }),
      metadata,
      allowedTools,
      modelInvocable,
      userInvocable,
      ...(argumentHint && { argumentHint }),
      dir: where.dir,
      file: where.file,
      body,
      bodyLine: fm.bodyLine + (lead.match(/\n/g)?.length ?? 0),
      scope: where.scope,
      root: where.root,
    },
    problems,
  };
}

function optionalString(v: unknown, key: string, problems: string[]): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v.trim() || undefined;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  problems.push(`${key} is not a string; ignored`);
  return undefined;
}

/** A boolean field; `"true"` / `"false"` as text count too; anything else is `fallback`, with a problem. */
function flag(v: unknown, key: string, fallback: boolean, problems: string[]): boolean {
  if (v === undefined || v === null) return fallback;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  problems.push(`${key} is not true or false; ignored`);
  return fallback;
}

/** `argument-hint`: one line of text; a YAML list is shown as `[a] [b]`. */
function hintText(v: unknown, problems: string[]): string | undefined {
  if (Array.isArray(v)) return v.map((x) => `[${String(x)}]`).join(' ') || undefined;
  const t = optionalString(v, 'argument-hint', problems);
  return t?.replace(/\s+/g, ' ');
}

/** `metadata`: a map of strings; numbers and booleans are kept as text, other values dropped. */
function metadataMap(v: unknown, problems: string[]): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) {
    problems.push('metadata is not a map of keys to strings; ignored');
    return {};
  }
  const out: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [k, value] of Object.entries(v as Record<string, unknown>)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      out[k] = String(value);
    } else dropped.push(k);
  }
  if (dropped.length) problems.push(`metadata ${dropped.join(', ')} not a string; ignored`);
  return out;
}

/** `allowed-tools`: space-separated names (a YAML list of names is read too). */
function allowedToolsList(v: unknown, problems: string[]): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return v.split(/\s+/).filter(Boolean);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
    return v.flatMap((x: string) => x.split(/\s+/)).filter(Boolean);
  }
  problems.push('allowed-tools is not a space-separated string of tool names; ignored');
  return [];
}

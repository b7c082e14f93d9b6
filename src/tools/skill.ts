import path from 'node:path';
import * as z from 'zod';
import { DEFAULT_LIST_BUDGET, fitListing } from '../skills/budget';
import { listSkillFiles } from '../skills/files';
import type { Skill } from '../skills/skill';
import { defineTool, ToolError, type Tool } from './tool';
import { MAX_OUTPUT_CHARS } from './truncate';
import { withCommas } from '../util/text';

/** Files of a skill folder listed by one call; the rest are counted. */
const MAX_LISTED_SKILL_FILES = 100;

const schema = z.object({
  name: z
    .string()
    .optional()
    .describe('The skill to load: one of the names listed in this description. Omit it to list every skill.'),
});

/**
 * The `skill` tool over the skills the model may invoke (DESIGN.md, "toolsIn": built only when one
 * exists; a skill with `disable-model-invocation: true` is the person's only), or undefined when
 * there are none, so a build without skills carries no trace of them. The description lists
 * each skill's name and description, by name; `skill(name)` returns the SKILL.md body without
 * frontmatter, the absolute folder and the folder's other files (relative, at most
 * {@link MAX_LISTED_SKILL_FILES}). A body too long for one result is cut at a line, with the
 * `read_file` offset to read on. Unknown name: an error listing the names (code `not_found`).
 * display: `list` (`total`: the folder's other files, `shown`: those listed).
 */
export function skillTool(all: readonly Skill[], budget = DEFAULT_LIST_BUDGET): Tool | undefined {
  const skills = all.filter((s) => s.modelInvocable !== false);
  if (skills.length === 0) return undefined;
  const sorted = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const byName = new Map(sorted.map((s) => [s.name, s]));
  const fitted = fitListing(sorted, budget);
  const more = fitted.unlisted
    ? `\n(${withCommas(fitted.unlisted)} more skills are not listed here: call skill without a name to list them all.)`
    : '';
  return defineTool({
    name: 'skill',
    kind: 'read',
    description:
      'Load a skill: instructions for one kind of task, with the files it ships (references, scripts, ' +
      'templates). When a task matches a skill below, call skill with its name before you start and ' +
      'follow what it says; it names the files to read or run, relative to its folder. The skills:\n' +
      fitted.lines.join('\n') +
      more,
    schema,
    describe: (args) => ({
      summary: args.name ? `Skill ${args.name}` : 'List the skills',
      detail: args.name ?? '',
      rememberable: true,
    }),
    async run(args) {
      if (!args.name?.trim()) {
        const all = fitListing(sorted, Number.POSITIVE_INFINITY).lines.map((l) => l.split('\n')[0]);
        return {
          output: `${sorted.length} skills (call skill with a name to load one):\n${all.join('\n')}`,
          title: `Listed ${sorted.length} skills`,
          display: { kind: 'list', total: sorted.length, shown: sorted.length },
        };
      }
      const skill = byName.get(args.name.trim());
      if (!skill) {
        throw new ToolError(
          `no skill named "${args.name}"; the skills are: ${sorted.map((s) => s.name).join(', ')}`,
          'not_found',
        );
      }
      const { files, total, partial } = await listSkillFiles(skill.dir, MAX_LISTED_SKILL_FILES);
      const fileLines = files.length
        ? [
            `Other files in ${skill.dir} (paths relative to it):`,
            ...files,
            ...(total > files.length || partial
              ? [
                  `… and ${partial ? 'more' : `${withCommas(total - files.length)} more`}; use glob in the folder to list them`,
                ]
              : []),
          ]
        : [`The folder has no other files.`];
      const head = `Skill "${skill.name}" from ${skill.file}. Its folder: ${skill.dir}`;
      const tail = fileLines.join('\n');
      const budget = MAX_OUTPUT_CHARS - head.length - tail.length - 400;
      const body = fitBody(skill, budget);
      return {
        output: `${head}\n\n${body}\n\n${tail}`,
        title: `Loaded skill ${skill.name}`,
        display: { kind: 'list', total, shown: files.length },
      };
    },
  });
}

/** The body whole, or its whole lines within `budget` characters and where to read on. */
function fitBody(skill: Skill, budget: number): string {
  if (skill.body.length <= budget) return skill.body;
  const lines = skill.body.split('\n');
  let used = 0;
  let n = 0;
  while (n < lines.length && used + lines[n].length + 1 <= budget) used += lines[n++].length + 1;
  n = Math.max(n, 1);
  const next = skill.bodyLine + n;
  return (
    `${lines.slice(0, n).join('\n')}\n\n` +
    `[SKILL.md goes on: ${lines.length - n} more lines; read them with read_file path=${path.normalize(skill.file)} offset=${next}]`
  );
}

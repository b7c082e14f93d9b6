import type { CustomCommand } from './commands';
import type { Skill } from './skill';

/**
 * The prompt `/NAME` of a skill sends before its arguments are filled: one line naming the skill,
 * its file and its folder (the paths its instructions give are relative to that folder), then the
 * SKILL.md body. `$ARGUMENTS`, `$1`… in the body are filled as in a command file.
 */
function skillPrompt(skill: Skill): string {
  return (
    `Use the skill "${skill.name}" (${skill.file}; the paths it names are relative to ${skill.dir}).\n\n` +
    skill.body
  );
}

/**
 * The skills the person may run as `/NAME [args]` (all but `user-invocable: false`), as command
 * entries, in the order given, except a name in `taken` (a built-in or a command file's, compared
 * in lower case): that one keeps its meaning and a notice says how the skill is still reached.
 */
export function skillCommands(
  skills: readonly Skill[],
  taken: readonly string[],
): { commands: CustomCommand[]; notices: string[] } {
  const names = new Set(taken.map((t) => t.replace(/^\//, '').toLowerCase()));
  const commands: CustomCommand[] = [];
  const notices: string[] = [];
  for (const s of skills) {
    if (s.userInvocable === false) continue;
    if (names.has(s.name)) {
      notices.push(
        `codey: skill ${s.name}: /${s.name} is already a command; ` +
          (s.modelInvocable !== false ? 'the model can still load the skill' : 'the skill cannot be run'),
      );
      continue;
    }
    names.add(s.name);
    commands.push({
      name: s.name,
      description: s.description.split('\n')[0].trim(),
      ...(s.argumentHint && { argumentHint: s.argumentHint }),
      body: skillPrompt(s),
      path: s.file,
      scope: s.scope,
      skill: true,
    });
  }
  return { commands, notices };
}

import { discoverCommands, type CustomCommand } from '../skills/commands';
import { discoverSkills } from '../skills/discover';
import { loadProjectInstructions } from '../skills/instructions';
import { lateInstructions } from '../skills/late-instructions';
import { absoluteEnv, projectRoot, shownPath, type PlacesEnv } from '../skills/places';
import { skillReadRoots } from '../skills/read-roots';
import { skillCommands } from '../skills/skill-commands';
import type { Skill } from '../skills/skill';
import { gitRootOf } from '../util/git-root';
import type { SkillInfo } from '../tui/commands/session-port';
import type { LateInstructionSource } from '../util/shapes';
import type { CommandRules } from '../config/resolve';
import { personEnv } from '../config/paths';
import { BUILTIN_COMMANDS } from '../tui/commands/builtin-commands';
import { realpathSync } from 'node:fs';

/**
 * What the CLI found for the session in the repository and the person's folders (skills, AGENTS.md),
 * read once at start and kept as it is for the whole session (also after `/worktree`), so the tool
 * list and the system prompt, the cached prefix of every request, never change.
 */
export interface ProjectContext {
  /** Skills for the `skill` tool (`discoverSkills`); empty: no skill tool and no word of skills. */
  readonly skills: readonly Skill[];
  /** The skills' folders the read tools may read outside the workspace (`skillReadRoots`). */
  readonly skillReadRoots: readonly string[];
  /** The project instructions section of the system prompt (`loadProjectInstructions`); `''`: none. */
  readonly instructions: string;
}

/** What the session loads once at start from the repository and the person's folders. */
export interface LoadedProject {
  /** For `buildAgent`: the skills, their readable folders and the instructions section. */
  project: ProjectContext;
  /** The custom command files, in precedence order. */
  commands: CustomCommand[];
  /** The instructions files whose text is in the system prompt, as the person reads the paths (for `--verbose`). */
  instructionFiles: string[];
  /** Instructions files found but not read, each with why (for `--verbose`). */
  instructionsSkipped: string[];
  /** The `paths:` rules held until a matching file is read or edited, with their globs (for `--verbose`). */
  instructionsOnDemand: string[];
  /** The instructions that arrive when a file they cover is first read or edited. */
  late: LateInstructionSource;
  /** One line each: invalid skills, clashes, the instructions cap. */
  notices: string[];
}

/**
 * Load skills (unless `skills` is false: `--no-skills` or `skills: false`), the project
 * instructions and the custom commands for `workspace`, once per session. `reserved`: the built-in
 * command names a command file may not take. Reads the file system only; never throws for what it
 * finds (a bad file is a notice).
 */
export async function loadProject(input: {
  workspace: string;
  env: PlacesEnv;
  skills: boolean;
  reserved: readonly string[];
}): Promise<LoadedProject> {
  const env = absoluteEnv(input.env);
  const gitRoot = gitRootOf(input.workspace, env.HOME);
  const places = { workspace: input.workspace, gitRoot, env };
  const [found, instructions, commands] = await Promise.all([
    input.skills ? discoverSkills(places) : Promise.resolve({ skills: [] as Skill[], notices: [] }),
    loadProjectInstructions(places),
    discoverCommands(places, input.reserved),
  ]);
  const readRoots = found.skills.length ? await skillReadRoots(found.skills, projectRoot(places)) : [];
  // Built-ins first, then command files, then the skills the person runs: the first of a name wins.
  const fromSkills = skillCommands(found.skills, [
    ...input.reserved,
    ...commands.commands.map((c) => c.name),
  ]);
  return {
    project: Object.freeze({
      skills: Object.freeze([...found.skills]),
      skillReadRoots: Object.freeze(readRoots),
      instructions: instructions.text,
    }),
    commands: [...commands.commands, ...fromSkills.commands],
    instructionFiles: instructions.files.map((f) => shownPath(f, input.workspace, places.env)),
    instructionsSkipped: instructions.skipped ?? [],
    instructionsOnDemand: (instructions.pathRules ?? []).map(
      (r) => `${shownPath(r.file, input.workspace, places.env)} (paths: ${r.paths.join(', ')})`,
    ),
    late: lateInstructions(places, instructions),
    notices: [...found.notices, ...instructions.notices, ...commands.notices, ...fromSkills.notices],
  };
}

/**
 * The `allowed-tools` of the repository's command files (not the person's own), each under the
 * name it is typed by: what the trust question asks about with the project files' settings.
 */
export async function projectCommandRules(
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<CommandRules[]> {
  const workspace = realpathSync(cwd);
  const abs = absoluteEnv(personEnv(env, workspace));
  const places = { workspace, gitRoot: gitRootOf(workspace, abs.HOME), env: abs };
  const { commands } = await discoverCommands(
    places,
    BUILTIN_COMMANDS.map((c) => c.name),
  );
  return commands
    .filter((c) => c.scope === 'project' && c.allowedTools?.length)
    .map((c) => ({ file: c.path, name: `/${c.name}`, rules: c.allowedTools ?? [] }));
}

/** The skills as `/skills` shows them: where from, relative to the workspace or `~`. */
export function skillInfos(skills: readonly Skill[], workspace: string, env: PlacesEnv): SkillInfo[] {
  return skills.map((s) => ({
    name: s.name,
    where: `${s.scope}: ${shownPath(s.dir, workspace, env)}`,
    description: s.description,
    allowedTools: s.allowedTools,
    ...(s.modelInvocable === false && { invokedBy: 'you only' as const }),
    ...(s.userInvocable === false && { invokedBy: 'the model only' as const }),
  }));
}

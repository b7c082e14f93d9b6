/**
 * Starting a stdio MCP server's child, apart from the transport so that it loads no part of the
 * SDK: the session starts its stdio children first and loads the SDK while they boot.
 */
import { isAbsolute, resolve } from 'node:path';
import type { PipedChild, StartPiped } from '../util/exec-shapes';
import type { McpServerSpec } from './servers';

/** A stdio server's command line, its own variables and the folder it starts in. */
export interface ChildCommand {
  file: string;
  args: readonly string[];
  env: Record<string, string>;
  /** Relative to the workspace when not absolute; default the workspace. */
  cwd?: string;
}

/** The workspace and the person's environment, which a stdio server starts from. */
export interface ChildWhere {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** The command of a stdio server's entry. */
export function childCommand(spec: Extract<McpServerSpec, { transport: 'stdio' }>): ChildCommand {
  return {
    file: spec.command,
    args: spec.args,
    env: spec.env,
    ...(spec.cwd !== undefined && { cwd: spec.cwd }),
  };
}

/** Start `command` with codey's one process runner; its pipes stay paused until read. */
export function startChild(command: ChildCommand, startPiped: StartPiped, where: ChildWhere): PipedChild {
  const { file, args, env, cwd } = command;
  const dir = cwd === undefined ? where.cwd : isAbsolute(cwd) ? cwd : resolve(where.cwd, cwd);
  return startPiped(file, args, { cwd: dir, env: where.env, named: env });
}

import { bashTool } from './bash';
import { sandboxedBashTool } from './sandboxed-bash';
import { editFileTool } from './edit-file';
import { globTool } from './glob';
import { grepTool } from './grep';
import { readFileTool } from './read-file';
import type { Tool } from './tool';
import { writeFileTool } from './write-file';

/**
 * The built-in workspace tools, in the order the model sees them: bash, read_file, write_file,
 * edit_file, glob, grep; with `sandboxed`, bash is the one that runs in the sandbox. The `builtin` source of `toolsIn` (factory.ts); every session has them.
 */
export function builtinTools(sandboxed = false): Tool[] {
  const bash = sandboxed ? sandboxedBashTool : bashTool;
  return [bash, readFileTool, writeFileTool, editFileTool, globTool, grepTool] as Tool[];
}

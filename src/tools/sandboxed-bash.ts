import * as z from 'zod';
import { BASH_DESCRIPTION, bashSchema, describeCommand, runBashCall } from './bash';
import { defineTool } from './tool';

const schema = bashSchema.extend({
  network: z
    .boolean()
    .optional()
    .describe(
      'true when the command needs the network (installing packages, git fetch, curl); the person is asked. Default false.',
    ),
});

/**
 * bash as it is with `sandbox: on`: the same tool, told that it runs in the sandbox, with a
 * `network` argument that asks for the network (the request says so: `network`, and every request
 * says `sandboxed`, which the approval ladder reads). The network a call gets is what it was
 * allowed (`ToolContext.sandbox.network`), not what it asked for.
 */
export const sandboxedBashTool = defineTool({
  name: 'bash',
  kind: 'execute',
  shows: 'shell',
  description:
    `${BASH_DESCRIPTION} Commands run in a sandbox: the workspace and a private /tmp are writable, the ` +
    'rest of the disk is read-only, .git/config and .git/hooks are read-only, and there is no network ' +
    'unless you pass network: true.',
  schema,
  describe: (args) => {
    const d = describeCommand(args.command);
    if (!args.network) return { ...d, sandboxed: true };
    return { ...d, summary: d.summary.replace(/^Run:/, 'Run with network:'), sandboxed: true, network: true };
  },
  run: runBashCall,
});

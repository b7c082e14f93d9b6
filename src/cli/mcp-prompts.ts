/**
 * MCP prompts as slash commands (DESIGN.md "Commands"): `/mcp__SERVER__PROMPT args` gets the prompt
 * from its server and sends its text as the person's message, in the TUI (a registry entry, so the
 * TUI imports nothing of src/mcp) and in `-p "/mcp__SERVER__PROMPT args"`.
 */
import type { McpConnections } from '../mcp/client';
import type { CommandSpec } from '../tui/commands/command-spec';
import type { McpPromptInfo } from '../util/mcp-shapes';

/** `/mcp__server__prompt`, lower case, any character a command name cannot hold as `_`. */
const commandName = (server: string, prompt: string) =>
  `/mcp__${server}__${prompt}`.toLowerCase().replace(/[^a-z0-9_/-]/g, '_');

/**
 * The prompt's arguments from the words after the command: one word each, in the order the
 * server lists them, the last taking the rest; or the sentence saying what is missing.
 */
function argumentsOf(name: string, p: McpPromptInfo, words: string): Record<string, string> | string {
  const list = p.arguments ?? [];
  const given = words.trim() ? words.trim().split(/\s+/) : [];
  const args: Record<string, string> = {};
  list.forEach((a, i) => {
    const value = i === list.length - 1 ? given.slice(i).join(' ') : given[i];
    if (value) args[a.name] = value;
  });
  const missing = list.filter((a) => a.required && !(a.name in args)).map((a) => a.name);
  return missing.length
    ? `${name} needs ${missing.join(', ')}: ${name} ${list.map((a) => (a.required ? a.name.toUpperCase() : `[${a.name.toUpperCase()}]`)).join(' ')}`
    : args;
}

/** One command per prompt of the servers that answered in time; not while a turn runs. */
export function mcpPromptSpecs(conns: McpConnections | undefined): CommandSpec[] {
  return (conns?.prompts() ?? []).map(({ server, prompt }) => {
    const name = commandName(server, prompt.name);
    const hint = (prompt.arguments ?? []).map((a) =>
      a.required ? a.name.toUpperCase() : `[${a.name.toUpperCase()}]`,
    );
    return {
      name,
      ...(hint.length && { args: hint.join(' ') }),
      description: `${prompt.description?.split('\n')[0] ?? 'a prompt'} (MCP ${server})`.slice(0, 200),
      whileBusy: false,
      run: async ({ args, signal }) => {
        const got = argumentsOf(name, prompt, args);
        if (typeof got === 'string') return { kind: 'error', message: got };
        return { kind: 'send', prompt: await conns!.getPrompt(server, prompt.name, got, signal) };
      },
    };
  });
}

/**
 * `-p "/mcp__SERVER__PROMPT args"`: the prompt's text when the first word names one, else undefined.
 * @throws Error with the sentence to print when its arguments are missing or the server refuses.
 */
export async function expandMcpPrompt(
  text: string,
  conns: McpConnections | undefined,
  signal: AbortSignal,
): Promise<string | undefined> {
  const m = /^(\/mcp__\S+)(?:\s+([\s\S]*))?$/.exec(text.trimStart());
  if (!m) return undefined;
  const spec = mcpPromptSpecs(conns).find((s) => s.name === m[1].toLowerCase());
  if (!spec) return undefined;
  const out = await spec.run({ args: m[2] ?? '', signal, session: undefined as never, commands: [] });
  if (out.kind === 'send') return out.prompt;
  throw new Error(out.kind === 'error' ? out.message : `${spec.name} gave nothing to send`);
}

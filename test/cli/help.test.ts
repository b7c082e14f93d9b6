import { describe, expect, it } from 'vitest';
import { helpWidth, HELP_WIDTH } from '../../src/cli/help-text';
import { buildProgram } from '../../src/cli/program';
import { settingSchemas } from '../../src/config/schema';

/** All that `codey --help` prints, options and the text after them. */
function helpText(): string {
  let out = '';
  const program = buildProgram().configureOutput({ writeOut: (s) => (out += s) });
  program.outputHelp();
  return out;
}

/** A setting's default, read from its schema. */
const schemaDefault = (key: keyof typeof settingSchemas): unknown => settingSchemas[key].parse(undefined);

/** The help's words with line breaks and the option column's indent joined to single spaces. */
const flat = (s: string) => s.replace(/\s+/g, ' ');

describe('codey --help', () => {
  it("gives each setting flag's default from the schema", () => {
    const help = flat(helpText());
    expect(help).toContain(
      `--model <id> model id (default ${String(schemaDefault('model'))}; env CODEY_MODEL`,
    );
    expect(help).toContain('model id (default claude-opus-4-8; env CODEY_MODEL, ANTHROPIC_MODEL)');
    expect(help).toContain(`one turn (default ${String(schemaDefault('max_turns'))}; env CODEY_MAX_TURNS)`);
    expect(help).toContain('one turn (default 100;');
    expect(help).toContain('default: "text"');
  });

  it('lists the defaults of settings without a flag, from the schema', () => {
    const help = flat(helpText());
    for (const key of ['web_provider', 'compact_at', 'max_agent_depth', 'max_tokens'] as const)
      expect(help).toContain(` ${key}=${String(schemaDefault(key))} `);
    expect(help).toContain(' web_provider=none ');
    expect(help).toContain(' compact_at=0.8 ');
    expect(help).toContain(' max_agent_depth=1 ');
  });

  it('keeps every line within 80 columns', () => {
    const long = helpText()
      .split('\n')
      .filter((l) => l.length > 80);
    expect(long).toEqual([]);
    expect(HELP_WIDTH).toBe(80);
  });

  it('wraps at a narrower terminal and at 80 columns on a wider one', () => {
    const tty = (columns: number) => ({ isTTY: true, columns }) as NodeJS.WriteStream;
    expect(helpWidth(tty(200))).toBe(80);
    expect(helpWidth(tty(60))).toBe(60);
    expect(helpWidth({ isTTY: false } as NodeJS.WriteStream)).toBe(80);
  });
});

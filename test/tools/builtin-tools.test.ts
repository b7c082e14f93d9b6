import { z } from 'zod';
import { neverAsks } from '../../src/approval/policy';
import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/tools/builtin-tools';

describe('builtinTools', () => {
  it('returns the six workspace tools in order, with their kinds and parameter names', () => {
    const seen = builtinTools().map((t) => {
      const schema = z.toJSONSchema(t.schema as z.ZodType, { io: 'input' }) as {
        properties: object;
        required?: string[];
      };
      return [
        t.name,
        t.displayName,
        t.kind,
        neverAsks(t.kind),
        Object.keys(schema.properties),
        schema.required ?? [],
      ];
    });
    expect(seen).toEqual([
      ['bash', 'Bash', 'execute', false, ['command', 'timeout_ms'], ['command']],
      ['read_file', 'ReadFile', 'read', true, ['path', 'offset', 'limit'], ['path']],
      ['write_file', 'WriteFile', 'edit', false, ['path', 'content'], ['path', 'content']],
      [
        'edit_file',
        'EditFile',
        'edit',
        false,
        ['path', 'old_string', 'new_string', 'replace_all'],
        ['path', 'old_string', 'new_string'],
      ],
      ['glob', 'Glob', 'read', true, ['pattern', 'path'], ['pattern']],
      ['grep', 'Grep', 'read', true, ['pattern', 'path', 'glob', 'output_mode', 'ignore_case'], ['pattern']],
    ]);
  });

  it('keeps descriptions short (every byte is paid on every turn) and describes every parameter', () => {
    for (const t of builtinTools()) {
      expect(t.description.length, t.name).toBeLessThanOrEqual(400);
      const schema = z.toJSONSchema(t.schema as z.ZodType) as {
        properties: Record<string, { description?: string }>;
      };
      for (const [name, p] of Object.entries(schema.properties))
        expect(p.description, `${t.name}.${name}`).toBeTruthy();
    }
  });
});

import * as z from 'zod';
import type { JsonSchemaParams } from './tool';
import { capQuote } from './truncate';

/** Check `input` with a zod schema: the parsed value, or one `path: message` line per issue (each part cut to a short quote). */
export function zodValidate(
  schema: z.ZodType,
  input: unknown,
): { ok: true; value: unknown } | { ok: false; issues: string[] } {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map(
      (i) => `${i.path.length ? capQuote(i.path.join('.')) : '(input)'}: ${capQuote(i.message)}`,
    ),
  };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Parameters for a tool whose schema arrives as JSON Schema (an MCP server's `inputSchema`): the
 * schema is sent to the API unchanged, and arguments are checked with zod's `z.fromJSONSchema`. A
 * schema zod cannot convert is still sent as is; its arguments are then only checked to be an
 * object, and the server that owns the schema checks the rest.
 */
export function jsonSchemaParams(jsonSchema: JsonSchemaParams['jsonSchema']): JsonSchemaParams {
  let zod: z.ZodType | undefined;
  try {
    zod = z.fromJSONSchema(jsonSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    zod = undefined;
  }
  return {
    jsonSchema,
    validate(input) {
      if (!isPlainObject(input)) return { ok: false, issues: ['(input): expected an object'] };
      if (!zod) return { ok: true, value: input };
      const checked = zodValidate(zod, input);
      return checked.ok ? { ok: true, value: checked.value as Record<string, unknown> } : checked;
    },
  };
}

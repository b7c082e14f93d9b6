import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { jsonSchemaParams } from '../../src/tools/json-schema';
import { Registry } from '../../src/tools/registry';
import { defineTool, ToolError, type ToolContext } from '../../src/tools/tool';

const ctx = (): ToolContext => ({
  cwd: '/',
  signal: new AbortController().signal,
  emit: () => {},
  state: { memo: new Map() },
  env: {},
});

const inputSchema = {
  type: 'object' as const,
  properties: { job: { type: 'string', minLength: 1 }, retries: { type: 'integer' } },
  required: ['job'],
  additionalProperties: false,
};
const runJob = defineTool({
  name: 'mcp__ci__run_job',
  kind: 'execute',
  description: 'Run a CI job.',
  schema: jsonSchemaParams(inputSchema),
  run: async (args) => `ran ${String(args.job)} with ${String(args.retries ?? 0)} retries`,
});

describe('Registry with a JSON Schema tool', () => {
  const registry = new Registry([runJob]);

  it('sends the JSON Schema as given', () => {
    expect(registry.definitions()).toEqual([
      { name: 'mcp__ci__run_job', description: 'Run a CI job.', input_schema: inputSchema },
    ]);
  });

  it('checks arguments with the schema and says what to rewrite', async () => {
    const bad = registry.parse('mcp__ci__run_job', { job: '', retries: 1.5 });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.code).toBe('invalid_arguments');
    expect(bad.error).toMatch(
      /^invalid arguments for mcp__ci__run_job: job: .*; retries: .*Rewrite the call/,
    );
    expect(registry.parse('mcp__ci__run_job', 'job')).toMatchObject({ ok: false });

    const good = registry.parse('mcp__ci__run_job', { job: 'lint', retries: 2 });
    if (!good.ok) throw new Error(good.error);
    expect((await registry.run(good.tool, good.args, ctx())).output).toBe('ran lint with 2 retries');
  });

  it('still sends and runs a schema zod cannot read, checking only that arguments are an object', async () => {
    const odd = { type: 'object' as const, properties: { x: { $ref: '#/nowhere' } } };
    const r = new Registry([defineTool({ ...runJob, name: 'odd', schema: jsonSchemaParams(odd) })]);
    expect(r.definitions()[0].input_schema).toEqual(odd);
    expect(r.parse('odd', { x: 1 }).ok).toBe(true);
    expect(r.parse('odd', [1]).ok).toBe(false);
  });
});

describe('Registry errors carry a code', () => {
  const tool = (run: () => Promise<string>) =>
    defineTool({ name: 't', kind: 'read', description: 'd', schema: z.object({}), run });

  it('keeps the code of a ToolError, calls anything else internal, and names an unknown tool', async () => {
    const registry = new Registry([]);
    expect(registry.parse('nope', {})).toMatchObject({ ok: false, code: 'unknown_tool' });
    // A name holding escape sequences is quoted with them written as \u escapes, not stripped.
    expect(registry.parse('bash\u001b]0;TN\u0007', {})).toMatchObject({
      error: 'unknown tool "bash\\u001b]0;TN\\u0007"; the tools are: ',
    });
    const notFound = tool(async () => {
      throw new ToolError('no file a.ts; did you mean b.ts?', 'not_found');
    });
    expect(await registry.run(notFound, {}, ctx())).toEqual({
      output: 'no file a.ts; did you mean b.ts?',
      isError: true,
      code: 'not_found',
    });
    const plain = tool(async () => {
      throw new ToolError('cannot');
    });
    expect((await registry.run(plain, {}, ctx())).code).toBe('failed');
    const broken = tool(async () => {
      throw new TypeError('x is undefined');
    });
    expect(await registry.run(broken, {}, ctx())).toEqual({
      output: 'internal error in t: x is undefined',
      isError: true,
      code: 'internal',
    });
  });
});

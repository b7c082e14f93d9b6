import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/tools/builtin-tools';
import { Registry } from '../../src/tools/registry';
import { webFetchTool } from '../../src/tools/web-fetch';
import { webSearchTool } from '../../src/tools/web-search';

/**
 * What the model sees of every tool (STYLE.md rule 17): a change to a name, a description or a
 * schema shows up here as a reviewed change to the snapshot file. Every byte is paid on every turn.
 */
describe('tool definitions', () => {
  const registry = new Registry([
    ...builtinTools(),
    webSearchTool({ name: 'ddgs', search: async () => [] }),
    webFetchTool({ fetch: async () => Promise.reject(new Error('unused')), htmlToText: (h) => h }),
  ]);
  const defs = registry.definitions();

  it('match the reviewed snapshot', async () => {
    await expect(JSON.stringify(defs, null, 2)).toMatchFileSnapshot('./__snapshots__/definitions.json');
  });

  it('with the sandbox on, bash says so and takes network (a reviewed snapshot too)', async () => {
    const sandboxed = new Registry(builtinTools(true)).definitions()[0];
    expect(Object.keys((sandboxed.input_schema.properties ?? {}) as object)).toEqual([
      'command',
      'timeout_ms',
      'network',
    ]);
    await expect(JSON.stringify(sandboxed, null, 2)).toMatchFileSnapshot(
      './__snapshots__/sandboxed-bash.json',
    );
  });

  it('keep the parameter names scripts and evals rely on', () => {
    const params = Object.fromEntries(
      defs.map((d) => [d.name, Object.keys((d.input_schema.properties ?? {}) as object)]),
    );
    expect(params).toEqual({
      bash: ['command', 'timeout_ms'],
      read_file: ['path', 'offset', 'limit'],
      write_file: ['path', 'content'],
      edit_file: ['path', 'old_string', 'new_string', 'replace_all'],
      glob: ['pattern', 'path'],
      grep: ['pattern', 'path', 'glob', 'output_mode', 'ignore_case'],
      web_search: ['query', 'count', 'site'],
      web_fetch: ['url', 'max_bytes', 'offset'],
    });
  });

  it('stay short: all eight tools fit in 6,000 bytes of JSON', () => {
    expect(JSON.stringify(defs).length).toBeLessThan(6_000);
  });
});

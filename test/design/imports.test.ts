import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circles, importGraph, importsOf, sourceFiles } from './import-graph';
import { ROOMS, roomOf, roomProblem } from './tui-rooms';

/**
 * The import rule of DESIGN.md ("Layers and the import rule"), checked on every source file: each
 * layer's row of the table, and a layer may import its own folder.
 */
const ALLOWED: Record<string, string[]> = {
  util: ['util'],
  web: ['web', 'util'],
  skills: ['skills', 'util'],
  mcp: ['mcp', 'util'],
  hooks: ['hooks', 'util'],
  tools: ['tools', 'web', 'skills', 'mcp', 'util'],
  approval: ['approval', 'util'],
  llm: ['llm', 'util'],
  agent: ['agent', 'llm', 'tools', 'approval', 'hooks', 'util'],
  config: ['config', 'util'],
  session: ['session', 'agent', 'util'],
  eval: ['eval', 'tools', 'llm', 'util'],
  tui: ['tui', 'agent', 'approval', 'config', 'util'],
  cli: [
    'cli',
    'util',
    'web',
    'skills',
    'mcp',
    'hooks',
    'tools',
    'approval',
    'llm',
    'agent',
    'config',
    'session',
    'tui',
    'eval',
  ],
};
/**
 * Imports the table allows for types only: the session store and the TUI take the agent's events and
 * types, the TUI the approval types (the TUI never runs the agent or the policy itself).
 */
const TYPES_ONLY: Record<string, string[]> = {
  session: ['agent'],
  tui: ['agent', 'approval'],
};
/** Layers that must never load the UI (STYLE.md rule 1). */
const NO_UI = [
  'eval',
  'agent',
  'tools',
  'web',
  'skills',
  'mcp',
  'hooks',
  'llm',
  'approval',
  'config',
  'session',
  'util',
];

const SRC = resolve(import.meta.dirname, '../../src');

const layerOf = (file: string) => relative(SRC, file).split('/')[0];

describe('the import rule', () => {
  const all = sourceFiles(SRC);
  it('finds the source files', () => {
    expect(all.length).toBeGreaterThan(20);
  });

  it('knows every folder of src as a layer of the table', () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(folders.map((d) => d.name).filter((n) => !(n in ALLOWED))).toEqual([]);
  });

  it.each(all.map((f) => [relative(SRC, f), f]))('%s imports only what its layer may', (_name, file) => {
    const layer = layerOf(file);
    const text = readFileSync(file, 'utf8');
    const problems: string[] = [];
    for (const imp of importsOf(text)) {
      if (imp.spec.startsWith('.')) {
        const target = resolve(dirname(file), imp.spec);
        if (!target.startsWith(SRC)) continue; // package.json for the version
        const to = layerOf(target);
        if (!(ALLOWED[layer] ?? []).includes(to))
          problems.push(`${layer} may not import ${to} (${imp.spec})`);
        if ((TYPES_ONLY[layer] ?? []).includes(to) && !imp.typeOnly)
          problems.push(`${layer} imports ${to} for types only (${imp.spec})`);
        const room = roomProblem(relative(SRC, file), relative(SRC, target));
        if (room) problems.push(room);
      } else if (NO_UI.includes(layer) && /^(ink|react|ink-)/.test(imp.spec)) {
        problems.push(`${layer} must not import ${imp.spec}`);
      } else if (layer === 'util' && !imp.spec.startsWith('node:')) {
        problems.push(`util imports nothing but Node built-ins (${imp.spec})`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('no import circle', () => {
  const shown = (root: string) => (circle: string[]) => circle.map((f) => relative(root, f)).join(' → ');

  it('no file of src imports a file that imports it back, inside a folder too, types included', () => {
    expect(circles(importGraph(sourceFiles(SRC))).map(shown(SRC))).toEqual([]);
  });

  it('finds a deliberate circle of type-only imports and one of value imports, and no more', () => {
    const root = resolve(import.meta.dirname, 'fixtures/circle');
    const found = circles(importGraph(sourceFiles(root)));
    expect(found.map(shown(root))).toEqual([
      'first.ts → second.ts → third.ts → first.ts',
      'pair-back.ts → pair.ts → pair-back.ts',
    ]);
  });
});

describe('the room rule of src/tui', () => {
  it('finds every file of src/tui in a room', () => {
    const tui = sourceFiles(join(SRC, 'tui')).map((f) => relative(SRC, f));
    expect(tui.length).toBeGreaterThan(60);
    expect(tui.filter((f) => !((roomOf(f) ?? '') in ROOMS))).toEqual([]);
  });

  it('lets a room import itself, the three shared rooms and what its row names', () => {
    expect(
      roomProblem('tui/transcript/tools/ToolCall.tsx', 'tui/transcript/transcript-state'),
    ).toBeUndefined();
    expect(roomProblem('tui/input/PromptInput.tsx', 'tui/text/format')).toBeUndefined();
    expect(roomProblem('tui/input/PromptInput.tsx', 'tui/commands/commands')).toBeUndefined();
    expect(roomProblem('tui/widgets/FileDiff.tsx', 'tui/text/diff')).toBeUndefined();
    expect(roomProblem('tui/app/App.tsx', 'tui/viewer/Viewer')).toBeUndefined();
    expect(roomProblem('tui/text/markdown.ts', 'util/text')).toBeUndefined();
    expect(roomProblem('cli/interactive.ts', 'tui/app/run')).toBeUndefined();
  });

  it('refuses a shared room importing another room', () => {
    expect(roomProblem('tui/text/markdown.ts', 'tui/input/input-state')).toBe(
      'text/ imports only text/, terminal/, widgets/ and util (tui/text/markdown.ts imports tui/input/input-state)',
    );
    expect(roomProblem('tui/text/format.ts', 'agent/events')).toBe(
      'text/ imports only text/, terminal/, widgets/ and util (tui/text/format.ts imports agent/events)',
    );
    expect(roomProblem('tui/widgets/Picker.tsx', 'tui/transcript/theme')).toMatch(/^widgets\/ imports only/);
  });

  it('refuses a room importing a room its row does not name', () => {
    expect(roomProblem('tui/transcript/Notice.tsx', 'tui/commands/commands')).toBe(
      'transcript/ may not import commands/ (tui/transcript/Notice.tsx imports tui/commands/commands)',
    );
    expect(roomProblem('tui/commands/commands.ts', 'tui/input/input-state')).toMatch(/may not import input/);
    expect(roomProblem('tui/transcript/Notice.tsx', 'agent/events')).toBeUndefined();
  });

  it('refuses any room but app importing app, and a file in no room', () => {
    expect(roomProblem('tui/approval/use-approval.ts', 'tui/app/controller')).toBe(
      'only src/cli imports app/ (tui/approval/use-approval.ts imports tui/app/controller)',
    );
    expect(roomProblem('tui/theme.ts', 'tui/text/format')).toBe('tui/theme.ts is in no room of the TUI');
    expect(roomProblem('tui/app/App.tsx', 'tui/lobby/Door')).toBeUndefined();
    expect(roomProblem('tui/input/PromptInput.tsx', 'tui/lobby/Door')).toBe(
      'tui/lobby/Door is in no room of the TUI',
    );
  });
});

describe('numbers in text', () => {
  it('are grouped by withCommas, never toLocaleString (its locale data costs tens of ms at first use)', () => {
    const SRC = resolve(__dirname, '../../src');
    const calls = sourceFiles(SRC).flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          /\.toLocale(String|DateString|TimeString)\(/.test(line) && !/^\s*(\/\/|\*)/.test(line)
            ? [`${relative(SRC, f)}:${i + 1}`]
            : [],
        ),
    );
    expect(calls).toEqual([]);
  });
});

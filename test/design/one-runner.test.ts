import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * DESIGN.md ("Sandbox and hooks"): every child process starts through the one runner, so that its
 * group, environment, timeout, interrupt and caps (and a sandbox) are decided in one place.
 */
const SRC = resolve(import.meta.dirname, '../../src');
/** The files that may name a process-starting module: the runner itself. */
const ALLOWED = ['tools/exec.ts'];
/** A quoted module name that starts processes: execa, child_process, cluster (forks), with or without `node:`. */
const STARTS_PROCESSES = /['"](?:execa|(?:node:)?child_process|(?:node:)?cluster)['"]/;

const sources = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((f) => /\.tsx?$/.test(f))
  .map((f) => f.split('\\').join('/'));

describe('the one process runner', () => {
  it('finds the runner among the sources', () => {
    expect(sources).toContain('tools/exec.ts');
  });

  it('is the only file that imports execa or child_process', () => {
    const others = sources.filter(
      (f) => !ALLOWED.includes(f) && STARTS_PROCESSES.test(readFileSync(join(SRC, f), 'utf8')),
    );
    expect(others).toEqual([]);
  });

  it('catches every way of naming them', () => {
    for (const text of [
      "import { execa } from 'execa';",
      "const { execa } = await import('execa');",
      "import { spawnSync } from 'node:child_process';",
      'import cp from "child_process";',
      "import cluster from 'node:cluster';",
    ])
      expect(STARTS_PROCESSES.test(text)).toBe(true);
    expect(STARTS_PROCESSES.test("import { runChild } from './exec';")).toBe(false);
  });
});

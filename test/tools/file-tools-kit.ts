/** Shared set-up for the file tool tests: real temp folders and a fake ToolContext. */
import { mkdir, mkdtemp, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Registry } from '../../src/tools/registry';
import type { Tool, ToolContext, ToolResult } from '../../src/tools/tool';
import { childEnv } from '../../src/util/secrets';

export interface FakeContext extends ToolContext {
  /** Every progress message the tool emitted. */
  progress: string[];
}

export function fakeContext(cwd: string, signal: AbortSignal = new AbortController().signal): FakeContext {
  const progress: string[] = [];
  return {
    cwd,
    signal,
    emit: (p) => progress.push(p.message),
    state: { memo: new Map() },
    env: childEnv(),
    progress,
  };
}

/** A fresh folder under the OS temp dir, symlinks resolved (ToolContext.cwd is always real). */
export async function tempDir(prefix = 'codey-tools-'): Promise<string> {
  return realpath(await mkdtemp(path.join(tmpdir(), prefix)));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/**
 * Write a tree of files: keys are paths relative to `root`, values the contents. Files get
 * increasing modification times in the order given (oldest first), one minute apart.
 */
export async function writeTree(root: string, files: Record<string, string | Buffer>): Promise<void> {
  let t = Date.UTC(2024, 0, 1) / 1000;
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content);
    await utimes(abs, t, t);
    t += 60;
  }
}

/**
 * Call a tool through the real {@link Registry}: its schema check, its `run` (a ToolError becomes an
 * error result with its code; any other exception an `internal` one). Arguments the schema refuses
 * fail the test, since a test means to pass valid ones; check refusals with `registry.parse`.
 */
export async function call(tool: Tool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  const registry = new Registry([tool], { env: ctx.env, readRoots: ctx.readRoots });
  const parsed = registry.parse(tool.name, args);
  if (!parsed.ok) throw new Error(`test passed invalid args: ${parsed.error}`);
  return registry.run(parsed.tool, parsed.args, ctx);
}

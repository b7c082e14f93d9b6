import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The import graph of a source tree, for the design tests: which file imports which (relative
 * imports, `export … from` and `import()` included, type-only ones too), and the circles in it.
 */

/** Every `.ts` and `.tsx` file under `dir`, as absolute paths, in name order. */
export function sourceFiles(dir: string): string[] {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  return entries.flatMap((d) =>
    d.isDirectory() ? sourceFiles(join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [join(dir, d.name)] : [],
  );
}

export interface Import {
  spec: string;
  typeOnly: boolean;
}

/** The module specifiers `text` imports or re-exports, and whether each is for types only. */
export function importsOf(text: string): Import[] {
  const out: Import[] = [];
  const re =
    /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) out.push({ spec: m[3] ?? m[4], typeOnly: Boolean(m[2]) });
  return out;
}

/** The file a relative specifier names (`./a` → `./a.ts`, `./a.tsx` or `./a/index.ts`), if it exists. */
function fileOf(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find(
    (f) => /\.tsx?$/.test(f) && existsSync(f),
  );
}

/** Each file of `files` and the files of the same tree it imports (only relative imports count). */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(readFileSync(file, 'utf8'))
      .filter((i) => i.spec.startsWith('.'))
      .map((i) => fileOf(file, i.spec))
      .filter((f): f is string => f !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The circles of `graph`: one per group of files that import each other round (a strongly
 * connected component), each given as a path from its first file (in `graph`'s order) back to it,
 * e.g. `[a, b, a]`. Empty when no file imports a file that imports it back.
 */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, then the shortest way round inside each component.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) groups.push(group);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  const order = [...graph.keys()];
  return groups.map((group) => {
    const inGroup = new Set(group);
    const start = order.find((f) => inGroup.has(f))!;
    const cameFrom = new Map<string, string>();
    const queue = [start];
    while (queue.length) {
      const v = queue.shift()!;
      for (const w of graph.get(v) ?? []) {
        if (!inGroup.has(w)) continue;
        if (w === start) {
          const path = [start];
          for (let u: string | undefined = v; u !== undefined && u !== start; u = cameFrom.get(u))
            path.splice(1, 0, u);
          return [...path, start];
        }
        if (!cameFrom.has(w)) {
          cameFrom.set(w, v);
          queue.push(w);
        }
      }
    }
    return [start, start];
  });
}

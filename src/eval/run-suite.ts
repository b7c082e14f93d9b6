/** A suite: find the cases, keep the selected ones, run them in parallel, and build the report. */
import { basename } from 'node:path';
import { CaseError, findCases, loadCase } from './case-file';
import { reportOf, totalsOf, type CaseResult, type Report } from './report';
import { runCase, type RunOptions } from './run-case';
import { inPool, selectCases, type Shard } from './select';

export interface SuiteOptions extends RunOptions {
  dirs: readonly string[];
  filters: readonly string[];
  shard?: Shard;
  jobs: number;
  /** Runs per case (live): the row gives the pass rate. */
  repeat: number;
  /** Each case's row as soon as it is done. */
  onCase?: (r: CaseResult) => void;
}

const failed = (name: string, reason: string): CaseResult => ({
  name,
  ok: false,
  reasons: [reason],
  requests: 0,
  tools: {},
  tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
  wall_ms: 0,
});

/** K runs of one case as one row: sums of the figures, `passes` of `runs`. */
function repeated(runs: CaseResult[]): CaseResult {
  const t = totalsOf(runs);
  const tools: Record<string, number> = {};
  for (const r of runs) for (const [n, c] of Object.entries(r.tools)) tools[n] = (tools[n] ?? 0) + c;
  return {
    name: runs[0].name,
    ok: t.failed === 0,
    reasons: runs.flatMap((r, i) => r.reasons.map((x) => `run ${i + 1}: ${x}`)),
    requests: t.requests,
    tools,
    tokens: t.tokens,
    ...(t.cost !== undefined && { cost: t.cost }),
    wall_ms: t.wall_ms,
    runs: runs.length,
    passes: t.passed,
  };
}

/**
 * Run the suite. @throws CaseError when the folders hold no case or the selection is empty; a case
 * whose files are wrong fails alone.
 */
export async function runSuite(o: SuiteOptions): Promise<Report> {
  const dirs = findCases(o.dirs);
  const byName = new Map(dirs.map((d) => [basename(d), d]));
  const names = selectCases([...byName.keys()], o.filters, o.shard);
  if (names.length === 0) throw new CaseError(`no case selected of ${byName.size}`);
  const jobs = names.flatMap((name) => Array.from({ length: o.repeat }, () => name));
  const results = await inPool(jobs, o.jobs, async (name) => {
    let r: CaseResult;
    try {
      r = await runCase(loadCase(byName.get(name)!), o);
    } catch (err) {
      r = failed(name, (err as Error).message);
    }
    if (o.repeat === 1) o.onCase?.(r);
    return r;
  });
  const rows = o.repeat === 1 ? results : names.map((n) => repeated(results.filter((r) => r.name === n)));
  const mode = o.record ? 'record' : o.upstream ? 'live' : o.update ? 'update' : 'replay';
  return reportOf(mode, rows);
}

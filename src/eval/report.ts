/**
 * The report of an eval run: one row per case and the totals, as a table for a person and as JSON
 * (`--json FILE`) that `codey eval --merge` joins across shards.
 */

export interface Tokens {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}

export interface CaseResult {
  name: string;
  ok: boolean;
  /** Why it failed, one sentence each. */
  reasons: string[];
  /** The first request that differed from the cassette, and how. */
  drift?: string;
  requests: number;
  /** Calls per tool name. */
  tools: Record<string, number>;
  tokens: Tokens;
  /** Dollars, when the model's price is known. */
  cost?: number;
  wall_ms: number;
  /** The temp folder left behind (`--keep`, or a failure). */
  kept?: string;
  /** With `--repeat`: how many runs there were and how many passed (the figures are sums). */
  runs?: number;
  passes?: number;
}

export interface Totals {
  cases: number;
  passed: number;
  failed: number;
  requests: number;
  tool_calls: number;
  tokens: Tokens;
  cost?: number;
  wall_ms: number;
}

export interface Report {
  mode: 'replay' | 'update' | 'live' | 'record';
  cases: CaseResult[];
  totals: Totals;
}

const sumTokens = (a: Tokens, b: Tokens): Tokens => ({
  input: a.input + b.input,
  output: a.output + b.output,
  cache_read: a.cache_read + b.cache_read,
  cache_write: a.cache_write + b.cache_write,
});
const NO_TOKENS: Tokens = { input: 0, output: 0, cache_read: 0, cache_write: 0 };

export function totalsOf(cases: readonly CaseResult[]): Totals {
  const priced = cases.filter((c) => c.cost !== undefined);
  return {
    cases: cases.length,
    passed: cases.filter((c) => c.ok).length,
    failed: cases.filter((c) => !c.ok).length,
    requests: cases.reduce((n, c) => n + c.requests, 0),
    tool_calls: cases.reduce((n, c) => n + Object.values(c.tools).reduce((a, b) => a + b, 0), 0),
    tokens: cases.reduce((t, c) => sumTokens(t, c.tokens), NO_TOKENS),
    ...(priced.length && { cost: priced.reduce((n, c) => n + (c.cost ?? 0), 0) }),
    wall_ms: cases.reduce((n, c) => n + c.wall_ms, 0),
  };
}

export function reportOf(mode: Report['mode'], cases: readonly CaseResult[]): Report {
  const sorted = [...cases].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { mode, cases: sorted, totals: totalsOf(sorted) };
}

/** Join reports (the shards of one suite) into one; the mode is the first's. */
export function mergeReports(reports: readonly Report[]): Report {
  return reportOf(
    reports[0]?.mode ?? 'replay',
    reports.flatMap((r) => r.cases),
  );
}

/** @throws Error when `v` is not a report this version wrote. */
export function asReport(v: unknown, file: string): Report {
  const r = v as Partial<Report> | null;
  if (!r || !Array.isArray(r.cases) || !r.totals) throw new Error(`${file} is not a codey eval report`);
  return r as Report;
}

const k = (n: number): string => (n >= 10_000 ? `${Math.round(n / 1000)}k` : String(n));
const secs = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;
const toolsText = (t: Record<string, number>): string =>
  Object.entries(t)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, n]) => `${name}×${n}`)
    .join(' ') || '-';
const tokensText = (t: Tokens): string =>
  `${k(t.input)}/${k(t.cache_read)}/${k(t.cache_write)}/${k(t.output)}`;

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * The report for a person: a row per case (result, requests, tokens as input/cache read/cache
 * write/output, cost, wall time, tool calls by name), each failure's reasons under it, the totals,
 * and the line `N passed, N failed`.
 */
export function formatReport(r: Report): string {
  const head = ['', 'case', 'requests', 'tokens in/cr/cw/out', 'cost', 'time', 'tools'];
  const rows = [head];
  const notes: string[] = [];
  for (const c of r.cases) {
    const status = c.runs ? `${c.passes}/${c.runs}` : c.ok ? 'PASS' : 'FAIL';
    rows.push([
      status,
      c.name,
      String(c.requests),
      tokensText(c.tokens),
      c.cost === undefined ? '-' : `$${c.cost.toFixed(4)}`,
      secs(c.wall_ms),
      toolsText(c.tools),
    ]);
    if (!c.ok)
      notes.push(`${c.name}:`, ...c.reasons.map((x) => `  ${x}`), ...(c.kept ? [`  kept ${c.kept}`] : []));
  }
  const t = r.totals;
  rows.push([
    '',
    `total (${t.cases})`,
    String(t.requests),
    tokensText(t.tokens),
    t.cost === undefined ? '-' : `$${t.cost.toFixed(4)}`,
    secs(t.wall_ms),
    `${t.tool_calls} calls`,
  ]);
  return (
    [table(rows), ...(notes.length ? ['', ...notes] : []), '', `${t.passed} passed, ${t.failed} failed`].join(
      '\n',
    ) + '\n'
  );
}

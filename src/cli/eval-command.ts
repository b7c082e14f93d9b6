/**
 * `codey eval [DIR...]`: run eval cases (README "Evals"), by default the workspace's `.codey/evals/`,
 * replaying their cassettes offline; or live, or recording. Exit 0 all passed, 1 a case failed, 2 a
 * usage error.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CaseError } from '../eval/case-file';
import { asReport, formatReport, mergeReports, type Report } from '../eval/report';
import { runSuite } from '../eval/run-suite';
import { parseShard } from '../eval/select';
import { EXIT } from './exit-codes';

type Write = (s: string) => void;

const EVAL_USAGE = `Usage: codey eval [DIR...] [options]
       codey eval --merge REPORT.json... [--json FILE]

Run eval cases: each a folder with case.json, workspace/ and cassette.jsonl. DIR is a case or a
folder of cases (default .codey/evals). Replay (the default) is offline: a local Messages API
serves the cassette and a request that differs from the recorded one fails as cassette drift.

Options:
  --filter TEXT   only cases whose name holds TEXT (repeatable)
  --jobs N        cases run at once (default: the core count)
  --shard K/N     the K-th of N deterministic parts of the cases
  --keep          keep every temp folder (a failed case's is always kept)
  --json FILE     write the report as JSON
  --merge         join the JSON reports given as arguments
  --live          run against the model (ANTHROPIC_API_KEY; --base-url or ANTHROPIC_BASE_URL)
  --record        as --live, and write each case's cassette.jsonl
  --update        replay the recorded replies without comparing digests, and write the new
                  digests of each case that passes (after a deliberate change to prompts or tools)
  --model M       the model of a live or record run
  --repeat K      live: run each case K times, report the pass rate
  --base-url URL  the Messages API of a live or record run
  -h, --help      show this help

Exit codes: 0 all passed, 1 a case failed, 2 a usage error.
`;

/** dist/cli.js and dist/eval-guard.js, beside the chunk this code was built into. */
const built = (name: string): string => fileURLToPath(new URL(`./${name}`, import.meta.url));

export async function runEvalCommand(
  argv: string[],
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  out: Write,
  err: Write,
): Promise<number> {
  const usage = (message: string): number => {
    err(`codey eval: ${message}\n(codey eval --help shows the options)\n`);
    return EXIT.usage;
  };
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        filter: { type: 'string', multiple: true },
        jobs: { type: 'string' },
        shard: { type: 'string' },
        keep: { type: 'boolean' },
        json: { type: 'string' },
        merge: { type: 'boolean' },
        live: { type: 'boolean' },
        record: { type: 'boolean' },
        update: { type: 'boolean' },
        model: { type: 'string' },
        repeat: { type: 'string' },
        'base-url': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    return usage((e as Error).message);
  }
  const o = parsed.values;
  if (o.help) {
    out(EVAL_USAGE);
    return EXIT.ok;
  }
  const finish = (report: Report): number => {
    out(formatReport(report));
    if (o.json) writeFileSync(o.json, `${JSON.stringify(report, null, 2)}\n`);
    return report.totals.failed ? EXIT.failed : EXIT.ok;
  };
  if (o.merge) {
    if (parsed.positionals.length === 0) return usage('--merge needs the JSON reports to join');
    try {
      return finish(
        mergeReports(parsed.positionals.map((f) => asReport(JSON.parse(readFileSync(f, 'utf8')), f))),
      );
    } catch (e) {
      return usage((e as Error).message);
    }
  }
  const count = (text: string | undefined, fallback: number): number | undefined => {
    if (text === undefined) return fallback;
    return /^[1-9]\d*$/.test(text) ? Number(text) : undefined;
  };
  const jobs = count(o.jobs, availableParallelism());
  const repeat = count(o.repeat, 1);
  if (jobs === undefined) return usage(`--jobs takes a whole number of 1 or more, got "${o.jobs}"`);
  if (repeat === undefined) return usage(`--repeat takes a whole number of 1 or more, got "${o.repeat}"`);
  const shard = o.shard === undefined ? undefined : parseShard(o.shard);
  if (o.shard !== undefined && !shard) return usage(`--shard takes K/N with 1 ≤ K ≤ N, got "${o.shard}"`);
  const live = Boolean(o.live || o.record);
  if (o.live && o.record) return usage('--live and --record: choose one (--record runs live too)');
  if (!live && (o.model || repeat > 1 || o['base-url']))
    return usage('--model, --repeat and --base-url need --live or --record');
  if (o.update && live) return usage('--update replays the cassettes: no --live or --record');
  if (o.record && repeat > 1) return usage('--record writes one cassette: no --repeat');
  const key = env.ANTHROPIC_API_KEY || env.CODEY_API_KEY;
  if (live && !key) return usage('--live and --record need ANTHROPIC_API_KEY');
  const cli = built('cli.js');
  const guard = built('eval-guard.js');
  if (!existsSync(cli) || !existsSync(guard)) return usage(`no build beside ${cli}; run npm run build`);
  try {
    const report = await runSuite({
      dirs: parsed.positionals.length ? parsed.positionals : [join(cwd, '.codey', 'evals')],
      filters: o.filter ?? [],
      shard,
      jobs,
      repeat,
      cli,
      guard,
      keep: o.keep,
      record: o.record,
      update: o.update,
      model: o.model,
      env,
      ...(live && {
        upstream: {
          url: o['base-url'] ?? env.CODEY_BASE_URL ?? env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com',
          key: key!,
        },
      }),
    });
    return finish(report);
  } catch (e) {
    if (e instanceof CaseError) return usage(e.message);
    throw e;
  }
}

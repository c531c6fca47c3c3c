// The benchmark's command line: the data size (`--large`, `--sessions`, `--days`), which steps to run
// (`--only`), and the output (`--json`). Wrong options fail with a message naming the option (exit 2).
import { parseArgs } from 'node:util';

export interface BenchOptions {
  sessions: number;
  days: number;
  /** Step ids to run (their prerequisites are added); undefined = every step. */
  only: string[] | undefined;
  json: boolean;
  large: boolean;
  /** Messages of the synthetic warehouse of the statistics step. */
  statsMessages: number;
  /** The emulator's page cap of the second full sync and its floor (the first runs at the default, 500). */
  maxPageSize: number;
  /** Requests in flight for the sync and the transfer floor (REPORTER_CONCURRENCY). */
  concurrency: number;
  seed: number;
  keep: boolean;
  help: boolean;
}

export const BENCH_HELP = `npm run bench -- [--large | --sessions N] [--days N] [--only STEP,...] [--json]

Measures the sync pipeline against its floors on this machine, side by side, and writes the figures to
bench/results/latest.json (latest-partial.json with --only) and the table to stdout. The emulator is started in this process with the
client-side rate limit lifted; every measured program (sync, floors) runs as a child process so that
its peak RSS is its own.

Sizes:
  (default)           about 20,000 sessions / 200,000 messages over --days
  --large             about 100,000 sessions / 1,000,000 messages
  --sessions N        N sessions (about 10 messages each)
  --days N            days of history in the emulator (default 30, the sync's REPORTER_HISTORY_DAYS)
  --stats-messages N  messages of the synthetic warehouse of the statistics step (default 10,000,000)

Steps (--only full-sync,incremental; prerequisites run too):
  full-sync       full sync into an empty warehouse (CLI child), requests per 1,000 messages, peak RSS
  transfer-floor  exactly the requests of that sync replayed with a bare undici Pool, bodies discarded
  full-sync-capped       the full sync again against an emulator capping pages at --max-page-size rows
  transfer-floor-capped  its requests replayed the same way (the ratio at that cap)
  load-floor      the same rows appended to an empty warehouse with DuckDB's appender, no HTTP
  parse-floor     the transfer floor's requests again, each body parsed (V8's JSON.parse, then DuckDB):
                  with the load floor, the CPU no design of the sync can shed (with --large only when
                  named in --only)
  native-floor    the same requests again, each page parsed, checked, mapped and inserted by DuckDB itself
                  into an empty warehouse (a prototype of that design; checked row by row against the full
                  sync's warehouse; with --large only when named in --only)
  sync-levers     the full sync again with each CPU lever that is a setting turned off (DuckDB on 2 threads;
                  windows of 24 hours), beside one with the defaults: what each lever saves (with
                  --large only when named in --only)
  incremental     incremental sync right after, nothing changed (cost must follow the look-back)
  stats           each statistics query on a synthetic warehouse of --stats-messages messages (built from
                  range() with its rollups, kept between runs under the OS temp folder, BENCH_SYNTHETIC_CACHE
                  to move it, =off to build afresh), best of 3; the whole report; stats --json and report
                  summary of the month as processes; peak RSS
  window-commits  the full sync's windows committed again, by turns with and without the statistics'
                  rollups: what keeping them costs a commit (CPU ratio, target <= 1.1)
  unhandled       the clusters of 1,000,000 unhandled (catch-all) questions vs reading their texts
  xlsx-export     the messages XLSX export of the synced warehouse vs a bare exceljs streaming writer
  exports         the Parquet lake of the synced warehouse (full, then incremental after a sync) and, where
                  clickhouse-server is installed, the replication into ClickHouse
  concurrent-readers  the full sync again while another process runs stats --json in a loop (and a control
                  loop reading a copy): the readers' wait, the sync's time against alone
  webhooks        reporter-etl webhooks at 500 requests/s for 10 s vs a bare HTTP server: latency p50/p99
  remote          the full sync against the emulator as a remote platform (60 ms away, 120 requests/s) vs
                  its floor there; again with 1 % random 429s (vs without); again with a fixed 4 in flight
                  (a smaller --sessions keeps it short: npm run bench -- --only remote --sessions 5000)
  side-by-side    reporter-etl sync beside an independent careful client (6 in flight, messages and
                  statuses per session), both through an independent proxy 60 ms away letting 120
                  requests/s through, wall times from outside, the same counts stored; again with the
                  proxy refusing the messages report tasks (statuses per client)
  webhooks-large  reporter-etl webhooks given 2,000 bodies of 50 KB (live, then a restart's load): peak RSS
                  vs bare DuckDB storing the same rows in the same batches

Other options:
  --concurrency N     requests in flight (default 4, the sync's default)
  --max-page-size N   the page cap of full-sync-capped and its floor (default 100, as some servers cap;
                      the other steps run at the emulator's default cap, 500 = REPORTER_PAGE_SIZE)
  --seed N            the emulator's data seed (default 42)
  --keep              keep the temporary directory (warehouses, recorded requests)
  --json              print the results JSON instead of the table

Example:
  npm run bench
  npm run bench -- --large
  npm run bench -- --sessions 5000 --only full-sync,transfer-floor
`;

export class BenchUsageError extends Error {}

function wholeNumber(value: string | undefined, name: string, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new BenchUsageError(`--${name} expects a whole number of at least ${min}, got "${value}"`);
  return Number(value);
}

export function parseBenchOptions(argv: readonly string[], stepIds: readonly string[]): BenchOptions {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        large: { type: 'boolean' },
        sessions: { type: 'string' },
        days: { type: 'string' },
        only: { type: 'string' },
        json: { type: 'boolean' },
        'stats-messages': { type: 'string' },
        concurrency: { type: 'string' },
        'max-page-size': { type: 'string' },
        seed: { type: 'string' },
        keep: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new BenchUsageError((error as Error).message);
  }
  if (values['large'] && values['sessions'] !== undefined)
    throw new BenchUsageError('--large sets the size: use it without --sessions');
  const only =
    typeof values['only'] === 'string'
      ? values['only']
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined;
  for (const id of only ?? [])
    if (!stepIds.includes(id))
      throw new BenchUsageError(`--only: unknown step "${id}"; the steps are ${stepIds.join(', ')}`);
  return {
    sessions: wholeNumber(
      values['sessions'] as string | undefined,
      'sessions',
      values['large'] ? 100_000 : 20_000,
    ),
    days: wholeNumber(values['days'] as string | undefined, 'days', 30),
    only,
    json: values['json'] === true,
    large: values['large'] === true,
    statsMessages: wholeNumber(values['stats-messages'] as string | undefined, 'stats-messages', 10_000_000),
    concurrency: wholeNumber(values['concurrency'] as string | undefined, 'concurrency', 4),
    maxPageSize: wholeNumber(values['max-page-size'] as string | undefined, 'max-page-size', 100),
    seed: wholeNumber(values['seed'] as string | undefined, 'seed', 42, 0),
    keep: values['keep'] === true,
    help: values['help'] === true,
  };
}

// `reporter-etl report <id>`: writes one report of reports/ as an XLSX workbook for analysts
// (data/reports/<id>_<from>_<to>.xlsx), or with --format html one self-contained page (the reports that offer it),
// and `report --list` lists the reports. The period is read like
// `stats` reads it (local dates in --tz); the default is yesterday in --tz.
import { resolve } from 'node:path';
import { findReport, listReports, reportsWritableAs } from '../../../reports/index.js';
import { loadConfig } from '../../config.js';
import { EXIT, UsageError } from '../../errors.js';
import { assertTrustedInDataDir } from '../../files/trusted-folder.js';
import type { Logger } from '../../log.js';
import { withConfiguredWarehouse } from '../../manage/use-warehouse.js';
import { createZoneClock } from '../../report/cell-values.js';
import { latestRecordDay } from '../../report/latest-period.js';
import { noDataNote } from '../../report/no-data-note.js';
import { escapeForTerminal } from '../../text/escape-terminal-text.js';
import { toCleanJson } from '../../text/format-figures.js';
import { formatSize } from '../../text/plural.js';
import { clearStatusLine, showStatusLine } from '../../text/status-line.js';
import { assertFromBeforeTo } from '../../time/check-period.js';
import { commandTimeZone, tzHelp } from '../../time/command-time-zone.js';
import { localToInstant, parseZonedTime } from '../../time/parse-zoned-time.js';
import {
  expandPeriod,
  PERIOD_OPTIONS,
  type PeriodValues,
  relativePeriodHelp,
} from '../../time/relative-period.js';
import { enumOption, parseCommandArgs } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { requireWarehouse } from '../require-warehouse.js';

/** The reports --format html writes (`summary, kb-health and kb-eval`), from the registry. */
const HTML_REPORTS = reportsWritableAs('html')
  .join(', ')
  .replace(/, ([^,]+)$/, ' and $1');

const HELP = `reporter-etl report <id> [--from T] [--to T] [--project NAME]... [--tz ZONE] [--out DIR]
                    [--format xlsx|html] [--json]
reporter-etl report --list [--json]

Writes an XLSX workbook for analysts from the warehouse (REPORTER_DATA_DIR/warehouse.duckdb): styled and
frozen header rows, autofilters, number, percent and date-time formats (date-times are local times in
--tz, named in the header). Reports (one folder each under reports/):
  summary    KPIs with charts (sessions per day, channel mix, delivery funnel, top labels), by day,
             by day × channel, channels, labels, delivery funnel, top intents, experiments, transfers
  sessions   every session of the period, one row each; sessionData keys as columns, labels joined
  messages   every message of the period with its session's channel and client, and its labels
  labels     session and message labels: totals and day by day
  prompter   the Prompter's suggestions for the questions prompter ask sent in the period: answered, with
             an option, top-1 confidence by tenths, top intents, top-1/top-3 accuracy, latency
  kb-health  the knowledge base's latest snapshot before --to (kb sync) against the one before: sources by
             status, failures, stale integrations, keys expiring in 14 days, changes; without --from/--to
             the period is today, so it shows the latest snapshot
  kb-eval    the latest kb eval run started in the period: hit@1, hit@5, MRR, answers with the expected
             text, failures, latency; compared with the previous run; worst questions; runs side by side;
             without --from/--to the period is the day (in --tz) of the latest run
  unhandled  the clusters of unhandled questions reporter-etl unhandled stored for exactly the period
             (every channel; the one --project's run, or every project's): size, trend, share, clients,
             agent sessions, examples, the knowledge base's and the Prompter's coverage, a chart of the top
             10 against the previous period; with no stored run it says which unhandled command to run
  (--project does not apply to kb-health and kb-eval: they read the knowledge base's tables)

Options:
  --from T, --to T   the period, --from inclusive, --to exclusive: a local date or date-time read in --tz
                     (2026-11-20, 2026-11-20T09:30) or an instant with its offset (2026-11-20T00:00:00Z);
                     default: yesterday in --tz, today for kb-health, the latest run's day for
                     kb-eval (--from alone: up to the end of today;
                     --to alone: the day before)
${relativePeriodHelp(21)}
  --project NAME     only this projectShortName (repeat it for several; default: every project)
${tzHelp('the days and of the date-time cells')}
  --out DIR          where the file goes (default REPORTER_DATA_DIR/reports)
  --format F         xlsx (default), or html for ${HTML_REPORTS}: one self-contained page (KPIs, the charts
                     as inline SVG, the tables; no external request) that opens in any browser and can be
                     mailed or printed
  --json             print the result (path, bytes, sheets and their rows, rows in all, empty) as JSON
  --list             list the reports

The file is <id>_<first day>_<last day>.xlsx for whole local days (last day inclusive), otherwise
<id>_<YYYYMMDDTHHMM>_<YYYYMMDDTHHMM>.xlsx (local times, --to exclusive); .html with --format html. It is written under a temporary
name and renamed when complete: an interrupted run (Ctrl-C) or a full disk leaves no file (the temporary
files a killed run left are removed by the next report run). Sheets past Excel's
1,048,575 data rows continue on "<sheet> (2)"; cells over 32,767 characters are cut with a marker.
An empty period (no data of the report in it) gives a workbook whose every sheet says "No data for <period>",
and a warning on stderr; --json says "rows": 0, "empty": true.

Exit codes: 0 written; 1 failed; 2 usage (unknown report, bad --from/--to/--tz/--format, unknown
--project, --project for kb-health or kb-eval, --format html for a report other than ${HTML_REPORTS}, no warehouse
yet); 75 the warehouse is locked by another process (waited REPORTER_LOCK_WAIT_SECONDS).

Examples:
  reporter-etl report --list
  reporter-etl report summary --tz Europe/Moscow                  # yesterday in Moscow
  reporter-etl report summary --tz Europe/Moscow --format html    # the same as one HTML page
  reporter-etl report messages --from 2026-11-16 --to 2026-11-23 --tz Europe/Moscow
  reporter-etl report sessions --from 2026-11-20T09:00 --to 2026-11-20T18:00 --json
`;

const DAY_MS = 86_400_000;

/** What the command needs from the world; tests pass their own. */
export interface ReportDeps {
  env: Record<string, string | undefined>;
  now: () => number;
  log?: Logger;
  /** Ctrl-C / SIGTERM stop the report; tests pass their own signal. */
  signal?: AbortSignal;
}

/** The period: --from/--to as `stats` reads them; without them, yesterday in the zone (or today, for a report that asks). */
export function resolvePeriod(
  values: PeriodValues,
  timeZone: string,
  now: number,
  defaultPeriod: 'yesterday' | 'today' | 'latest' = 'yesterday',
): { from: number; to: number } {
  const local = createZoneClock(timeZone);
  const todayStart = localToInstant(Math.floor(local(now) / DAY_MS) * DAY_MS, timeZone);
  const given = expandPeriod(values, timeZone, now);
  const from = given.from === undefined ? undefined : parseZonedTime(given.from, 'from', timeZone);
  const to = given.to === undefined ? undefined : parseZonedTime(given.to, 'to', timeZone);
  const period =
    from !== undefined && to !== undefined
      ? { from, to }
      : from !== undefined
        ? { from, to: localToInstant(Math.floor(local(now) / DAY_MS) * DAY_MS + DAY_MS, timeZone) }
        : to !== undefined
          ? { from: localToInstant(Math.floor(local(to - 1) / DAY_MS) * DAY_MS, timeZone), to }
          : defaultPeriod === 'today'
            ? {
                from: todayStart,
                to: localToInstant(Math.floor(local(now) / DAY_MS) * DAY_MS + DAY_MS, timeZone),
              }
            : {
                from: localToInstant(Math.floor(local(now) / DAY_MS) * DAY_MS - DAY_MS, timeZone),
                to: todayStart,
              };
  assertFromBeforeTo(period.from, period.to, values);
  return period;
}

export async function runReport(argv: string[], io: CommandIo, deps: ReportDeps): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      ...PERIOD_OPTIONS,
      project: { type: 'string', multiple: true },
      tz: { type: 'string' },
      out: { type: 'string' },
      format: { type: 'string' },
      json: { type: 'boolean' },
      list: { type: 'boolean' },
    },
    'allow',
  );
  if (values.list) {
    const reports = listReports();
    if (values.json) io.out(JSON.stringify({ reports }, null, 2));
    else {
      const width = Math.max(...reports.map((r) => r.id.length));
      io.out(reports.map((r) => `${r.id.padEnd(width)}  ${r.title}: ${r.description}`).join('\n'));
    }
    return EXIT.ok;
  }
  if (positionals.length !== 1)
    throw new UsageError(
      `give one report id (${listReports()
        .map((r) => r.id)
        .join(', ')}), e.g. reporter-etl report summary; reporter-etl report --list lists them`,
    );
  const report = findReport(positionals[0]!);
  const format = enumOption(values.format, 'format', ['xlsx', 'html'] as const, 'xlsx');
  if (!(report.formats ?? ['xlsx']).includes(format))
    throw new UsageError(
      `--format ${format}: the ${report.id} report is written as XLSX only; --format ${format} is for ${reportsWritableAs(format).join(', ')}`,
    );
  const config = loadConfig(deps.env, { requireToken: false });
  const timeZone = commandTimeZone(values.tz, config.timeZone);
  // a report that defaults to its latest record finds that record's day in the warehouse, below
  const givenPeriod =
    report.defaultPeriod === 'latest' && values.from === undefined && values.to === undefined
      ? undefined
      : resolvePeriod(values, timeZone, deps.now(), report.defaultPeriod);
  const log = deps.log ?? createCommandLogger(config);
  requireWarehouse(config, 'report');
  const outDir = resolve(values.out ?? resolve(config.dataDir, 'reports'));
  assertTrustedInDataDir(config.dataDir, outDir);
  const controller = new AbortController();
  const stop = () => controller.abort(new Error('interrupted'));
  deps.signal?.addEventListener('abort', stop, { once: true });
  if (!deps.signal) {
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
  const showProgress = io.isTty && !values.json;
  let period = givenPeriod;
  // the writers (exceljs, the charts' renderer) are loaded when a report is written, not by `report --help`
  const { writeReport } = await import('../../report/write-report.js');
  // read-only and per slice: the export holds the file only while a slice's statement runs
  const result = await withConfiguredWarehouse(config, 'read', log, async (warehouse) => {
    try {
      period =
        givenPeriod ??
        (await latestRecordDay(warehouse, report, timeZone)) ??
        resolvePeriod({}, timeZone, deps.now());
      const { from, to } = period;
      return await writeReport({
        warehouse,
        report,
        from,
        to,
        ...(values.project === undefined ? {} : { projects: values.project }),
        tz: timeZone,
        outDir,
        outDirIsDefault: values.out === undefined,
        formats: [format],
        log,
        signal: controller.signal,
        onProgress: showProgress
          ? (p) =>
              showStatusLine(
                escapeForTerminal(`${report.id}: ${p.sheet}: ${p.rows.toLocaleString('en-US')} rows`),
              )
          : undefined,
      });
    } finally {
      clearStatusLine();
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  });
  // the file says so too; a script or a person running it by hand learns it here, not by opening it
  if (result.empty)
    io.err(
      `warning: ${report.id}: ${noDataNote(period!.from, period!.to, timeZone)}${result.noDataReason === undefined ? '' : `: ${result.noDataReason}`}; the report says so (check --from/--to, --tz${report.reads === 'kb' ? '' : ', --project'})`,
    );
  if (values.json) io.out(toCleanJson(result));
  else {
    const sheets = result.sheets.map((s) => `${s.name} (${s.rows.toLocaleString('en-US')})`).join(', ');
    io.out(
      `${result.path}\n  ${formatSize(result.bytes)} in ${(result.durationMs / 1000).toFixed(1)} s; sheets: ${sheets}`,
    );
  }
  return EXIT.ok;
}

export const reportCommand: Command = {
  name: 'report',
  help: HELP,
  run: (argv, io) => runReport(argv, io, { env: process.env, now: Date.now }),
};

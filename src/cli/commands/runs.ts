// `reporter-etl runs`: the run history of the jobs (etl_runs), newest first, as a table or JSON.
import { existsSync } from 'node:fs';
import { ALERTS_SQL } from '../../analysis/alerts/alerts-sql.js';
import { CONFIG_DEFAULTS as D, loadConfig } from '../../config.js';
import { UsageError } from '../../errors.js';
import { formatTable } from '../../manage/format-table.js';
import { withConfiguredWarehouse } from '../../manage/use-warehouse.js';
import { toCleanJson } from '../../text/format-figures.js';
import { commandTimeZone, tzHelp } from '../../time/command-time-zone.js';
import type { RunRecord } from '../../warehouse/warehouse.js';
import { intOption, parseCommandArgs } from '../args.js';
import type { Command } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { requireDataDir } from '../require-warehouse.js';

const HELP = `reporter-etl runs [--job NAME] [--project NAME] [--limit N] [--tz ZONE] [--wide] [--json]

Shows the run history recorded in the warehouse (table etl_runs), newest first: what ran, when, how it
ended, what it moved (windows, sessions, messages, requests, rejected records), the error of a failed
run and its Pushgate notification (sent, or failed: why; REPORTER_PUSHGATE_URL). Below, the latest alert
changes (a rule of REPORTER_ALERTS firing or resolved after a sync), newest first. A run whose process is
known dead on this host (gone, a zombie, its PID reused) shows as failed ("abandoned: ..."), as the next run
closes it; one of another host shows running until its heartbeat is 30 s old and the next run closes it.

Options:
  --job NAME       only this job (e.g. sync)
  --project NAME   only this projectShortName
  --limit N        at most N runs (default 20)
${tzHelp('the times in the tables (2026-11-20T12:00:00+03:00)', 17)}
  --wide           every column (run id, windows, sessions, requests, notification, the whole error); by default the table
                   fits 100 columns: started, job, project, status, duration, messages, rejected, and the
                   outcome (the error, or "notified"), cut to fit
  --json           the runs as JSON on stdout (every field; times in ISO 8601 UTC)

Reads REPORTER_DATA_DIR (default ${D.REPORTER_DATA_DIR}); no token is needed. It reads while a sync runs
(waiting at most REPORTER_LOCK_WAIT_SECONDS for a commit).

Exit codes: 0 ok, 2 usage (a bad --limit, no warehouse yet), 75 a writer held the warehouse too long.

Examples:
  reporter-etl runs
  reporter-etl runs --job sync --limit 5
  reporter-etl runs --json | jq '.runs[] | select(.status == "failed") | .error'
`;

export const runsCommand: Command = {
  name: 'runs',
  help: HELP,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      job: { type: 'string' },
      project: { type: 'string' },
      limit: { type: 'string' },
      tz: { type: 'string' },
      json: { type: 'boolean' },
      wide: { type: 'boolean' },
    });
    const config = loadConfig(process.env, { requireToken: false });
    requireDataDir(config);
    if (!existsSync(config.warehousePath)) {
      throw new UsageError(
        `no warehouse at ${config.warehousePath} (REPORTER_DATA_DIR): run \`reporter-etl sync\` first`,
      );
    }
    const limit = intOption(values.limit, 'limit', 20, 1);
    const timeZone = commandTimeZone(values.tz, config.timeZone);
    const log = createCommandLogger(config);
    return withConfiguredWarehouse(config, 'read', log, async (warehouse) => {
      const runs = await warehouse.listRuns({
        limit,
        ...(values.job === undefined ? {} : { job: values.job }),
        ...(values.project === undefined ? {} : { project: values.project }),
      });
      const alerts = (await warehouse.query(ALERTS_SQL.recentAlerts, { limit })).map(toAlert);
      if (values.json) {
        io.out(toCleanJson({ runs: runs.map(runAsJson), alerts: alerts.map(alertAsJson) }));
        return 0;
      }
      if (runs.length === 0) {
        io.out('No runs recorded yet.');
        return 0;
      }
      for (const line of formatRuns(runs, values.wide === true, timeZone)) io.out(line);
      if (alerts.length > 0) {
        io.out('');
        io.out('Alerts (newest first):');
        const alertColumns = values.wide ? ALERT_COLUMNS : ALERT_COLUMNS.filter(([c]) => c !== 'runId');
        for (const line of formatTable(alerts as unknown as Record<string, unknown>[], {
          columns: alertColumns.map(([column]) => column),
          headers: alertColumns.map(([, header]) => header),
          times: ['alertedAt'],
          timeZone,
          indent: '',
          ...(values.wide ? {} : { maxLineWidth: NARROW_LINE }),
        }))
          io.out(line);
      }
      return 0;
    });
  },
};

/** The alerts' columns, headers in words; the run id only with --wide. */
const ALERT_COLUMNS: readonly [column: string, header: string][] = [
  ['alertedAt', 'At'],
  ['state', 'State'],
  ['rule', 'Rule'],
  ['project', 'Project'],
  ['message', 'Message'],
  ['runId', 'Run'],
];

/** The width of the table without --wide: what a terminal shows without wrapping. */
const NARROW_LINE = 100;

/** Columns of the runs table, headers in words; the narrow table leaves out those marked wide. */
const RUN_COLUMNS: readonly { column: string; header: string; wide?: true }[] = [
  { column: 'runId', header: 'Run', wide: true },
  { column: 'startedAt', header: 'Started' },
  { column: 'job', header: 'Job' },
  { column: 'project', header: 'Project' },
  { column: 'trigger', header: 'Trigger', wide: true },
  { column: 'status', header: 'Status' },
  { column: 'durationSeconds', header: 'Time (s)' },
  { column: 'windows', header: 'Windows', wide: true },
  { column: 'sessions', header: 'Sessions', wide: true },
  { column: 'messages', header: 'Messages' },
  { column: 'requests', header: 'Requests', wide: true },
  { column: 'rejects', header: 'Rejected' },
  { column: 'notification', header: 'Notification', wide: true },
  { column: 'error', header: 'Error', wide: true },
  { column: 'outcome', header: 'Outcome' },
];

/**
 * The runs as table lines: every column with `wide` (the error last and whole), else the narrow columns cut to
 * NARROW_LINE, with a line saying where a cut outcome is whole.
 */
export function formatRuns(runs: readonly RunRecord[], wide: boolean, timeZone: string): string[] {
  const columns = RUN_COLUMNS.filter((c) => (wide ? c.column !== 'outcome' : !c.wide));
  const rows = runs.map((run) => ({
    ...run,
    durationSeconds: typeof run.durationMs === 'number' ? (run.durationMs / 1000).toFixed(1) : null,
    outcome: [
      run.error,
      run.notification && (run.notification === 'sent' ? 'notified' : `notification ${run.notification}`),
    ]
      .filter(Boolean)
      .join('; '),
  }));
  const lines = formatTable(rows as unknown as Record<string, unknown>[], {
    columns: columns.map((c) => c.column),
    headers: columns.map((c) => c.header),
    times: ['startedAt'],
    timeZone,
    counts: ['windows', 'sessions', 'messages', 'requests', 'rejects'],
    indent: '',
    ...(wide ? { uncut: ['error'] } : { maxLineWidth: NARROW_LINE }),
  });
  const cut = !wide && lines.slice(1).some((line) => line.endsWith('…'));
  return cut ? [...lines, '(an outcome ending in … is cut: runs --wide or --json shows it whole)'] : lines;
}

interface AlertRow {
  alertId: string;
  project: string;
  rule: string;
  state: string;
  value: number | null;
  threshold: number;
  message: string;
  runId: string | null;
  alertedAt: number;
}

function toAlert(row: Record<string, unknown>): AlertRow {
  return {
    alertId: String(row['alert_id']),
    project: String(row['project']),
    rule: String(row['rule']),
    state: String(row['state']),
    value: row['value'] === null ? null : Number(row['value']),
    threshold: Number(row['threshold']),
    message: String(row['message']),
    runId: row['run_id'] === null ? null : String(row['run_id']),
    alertedAt: Number(row['alerted_at']),
  };
}

/** ISO 8601 UTC for an epoch-ms time, null kept. */
function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function runAsJson(run: RunRecord): Record<string, unknown> {
  return { ...run, startedAt: iso(run.startedAt), finishedAt: iso(run.finishedAt) };
}

function alertAsJson(alert: AlertRow): Record<string, unknown> {
  return { ...alert, alertedAt: iso(alert.alertedAt) };
}

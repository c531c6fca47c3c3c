// `reporter-etl runs`: the run history of the jobs (etl_runs), newest first, as a table or JSON.
import { existsSync } from 'node:fs';
import { ALERTS_SQL } from '../../alerts/alerts-sql.js';
import { CONFIG_DEFAULTS as D, loadConfig } from '../../config.js';
import { UsageError } from '../../errors.js';
import { formatTable } from '../../manage/format-table.js';
import { withConfiguredWarehouse } from '../../manage/use-warehouse.js';
import { intOption, parseCommandArgs } from '../args.js';
import type { Command } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { requireDataDir } from '../require-warehouse.js';

const HELP = `reporter-etl runs [--job NAME] [--project NAME] [--limit N] [--json]

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
  --json           the runs as JSON on stdout

Reads REPORTER_DATA_DIR (default ${D.REPORTER_DATA_DIR}); no token is needed. It reads while a sync runs
(waiting at most REPORTER_LOCK_WAIT_SECONDS for a commit).

Exit codes: 0 ok, 2 usage (a bad --limit, no warehouse yet), 75 a writer held the warehouse too long.

Examples:
  npx reporter-etl runs
  npx reporter-etl runs --job sync --limit 5
  npx reporter-etl runs --json | jq '.runs[] | select(.status == "failed") | .error'
`;

export const runsCommand: Command = {
  name: 'runs',
  help: HELP,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      job: { type: 'string' },
      project: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
    });
    const config = loadConfig(process.env, { requireToken: false });
    requireDataDir(config);
    if (!existsSync(config.warehousePath)) {
      throw new UsageError(
        `no warehouse at ${config.warehousePath} (REPORTER_DATA_DIR): run \`reporter-etl sync\` first`,
      );
    }
    const limit = intOption(values.limit, 'limit', 20, 1);
    const log = createCommandLogger(config);
    return withConfiguredWarehouse(config, 'read', log, async (warehouse) => {
      const runs = await warehouse.listRuns({
        limit,
        ...(values.job === undefined ? {} : { job: values.job }),
        ...(values.project === undefined ? {} : { project: values.project }),
      });
      const alerts = (await warehouse.query(ALERTS_SQL.recentAlerts, { limit })).map((row) => ({
        alertId: String(row['alert_id']),
        project: String(row['project']),
        rule: String(row['rule']),
        state: String(row['state']),
        value: row['value'] === null ? null : Number(row['value']),
        threshold: Number(row['threshold']),
        message: String(row['message']),
        runId: row['run_id'] === null ? null : String(row['run_id']),
        alertedAt: Number(row['alerted_at']),
      }));
      if (values.json) {
        io.out(JSON.stringify({ runs, alerts }, null, 2));
        return 0;
      }
      if (runs.length === 0) {
        io.out('No runs recorded yet.');
        return 0;
      }
      // headers in words and durations in seconds for people; --json keeps the fields as they are
      const table: [column: string, header: string][] = [
        ['runId', 'Run'],
        ['job', 'Job'],
        ['project', 'Project'],
        ['trigger', 'Trigger'],
        ['status', 'Status'],
        ['startedAt', 'Started'],
        ['durationSeconds', 'Duration (s)'],
        ['windows', 'Windows'],
        ['sessions', 'Sessions'],
        ['messages', 'Messages'],
        ['requests', 'Requests'],
        ['rejects', 'Rejected'],
        ['error', 'Error'],
        ['notification', 'Notification'],
      ];
      const rows = runs.map((run) => ({
        ...run,
        durationSeconds: typeof run.durationMs === 'number' ? (run.durationMs / 1000).toFixed(1) : null,
      }));
      for (const line of formatTable(rows as unknown as Record<string, unknown>[], {
        columns: table.map(([column]) => column),
        headers: table.map(([, header]) => header),
        times: ['startedAt'],
        indent: '',
      }))
        io.out(line);
      if (alerts.length > 0) {
        io.out('');
        io.out('Alerts (newest first):');
        for (const line of formatTable(alerts as unknown as Record<string, unknown>[], {
          columns: ['alertedAt', 'state', 'rule', 'project', 'message', 'runId'],
          headers: ['At', 'State', 'Rule', 'Project', 'Message', 'Run'],
          times: ['alertedAt'],
          indent: '',
        }))
          io.out(line);
      }
      return 0;
    });
  },
};

// The registry of sources: one line per source unit, and the core's settings (the keys no unit owns). The table
// list (tables.ts), the job list (jobs/registry.ts), the CLI's list and the log's secret list derive from it.
// A source never imports it.

import { defineSettings } from '../settings/define-settings.js';
import { chatApiSource } from './chatapi/source.js';
import { kbSource } from './kb/source.js';
import { prompterSource } from './prompter/source.js';
import { reporterSource } from './reporter/source.js';
import type { SourceUnit } from './source-unit.js';
import { stateRoutesSource } from './state-routes/source.js';
import { telephonySource } from './telephony/source.js';
import { webhooksSource } from './webhooks/source.js';

export const SOURCES: readonly SourceUnit[] = [
  reporterSource,
  chatApiSource,
  webhooksSource,
  prompterSource,
  kbSource,
  stateRoutesSource,
  telephonySource,
];

/** The settings of the core (the warehouse, the scheduler, reports, the log): with the units' they cover ENV_KEYS. */
export const CORE_SETTINGS = defineSettings({
  REPORTER_DATA_DIR: { describe: 'the folder of the warehouse, the reports and the spool' },
  REPORTER_DUCKDB_MEMORY_LIMIT: { describe: "DuckDB's memory limit outside a sync" },
  REPORTER_DUCKDB_THREADS: { describe: "DuckDB's worker threads outside a sync" },
  REPORTER_LOCK_WAIT_SECONDS: {
    describe: 'how long a command waits for another process to release the warehouse',
  },
  REPORTER_SQL_TIMEOUT_SECONDS: { describe: "how long an analyst's query may run" },
  REPORTER_TZ: { describe: 'the zone of the schedules and of "yesterday"' },
  REPORTER_JOBS: { describe: 'the jobs `schedule` runs' },
  REPORTER_RETENTION_DAYS: { describe: 'the age after which the retention job deletes' },
  REPORTER_SHUTDOWN_GRACE_SECONDS: { describe: 'how long a stopping scheduler waits for its jobs' },
  REPORTER_DAILY_REPORT_HTML: { describe: 'the daily report also as HTML' },
  REPORTER_ALERTS: { describe: 'the alert rules evaluated after each sync' },
  LOG_LEVEL: { describe: 'the level of the log' },
  LOG_FORMAT: { describe: 'json or pretty' },
});

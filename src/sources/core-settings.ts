// The settings of the core (the warehouse, the scheduler, reports, the log), which no source or destination
// owns. With the units' settings they cover every key of config.ts's ENV_KEYS (test/sources/unit-settings.test.ts).
import { defineSettings } from './define-settings.js';

export const CORE_SETTINGS = defineSettings({
  REPORTER_DATA_DIR: { describe: 'the folder of the warehouse, the reports and the spool' },
  REPORTER_DUCKDB_MEMORY_LIMIT: { describe: "DuckDB's memory limit outside a sync" },
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

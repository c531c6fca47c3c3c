// The Reporter API as a source unit (in src/sources/reporter/, which reads it: src/platform/reporter/ may import only src/time/
// and the root): its settings (each project's token a secret), tables and error codes. Its pull is the `sync`
// job (jobs/sync.ts, which also reads the Chat API history and exports to ClickHouse), listed by
// jobs/registry.ts itself until that orchestration is written once (issue 32, item 7).
import { defineSettings, selectErrorCodes } from '../../settings/define-settings.js';
import type { SourceUnit } from '../source-unit.js';
import { REPORTER_TABLES } from './tables.js';

export const reporterSource: SourceUnit = {
  id: 'reporter',
  describe: "the Reporter API: each project's sessions, messages, labels, clients and catalogues",
  settings: defineSettings({
    REPORTER_BASE_URL: { describe: 'the platform the Reporter API is read from' },
    REPORTER_TOKEN: {
      describe: 'the Reporter API token (or REPORTER_CONFIG: a JSON file of projects, each with its token)',
      secret: (config) => config.projects.map((p) => p.token),
    },
    REPORTER_API: { describe: 'v1 or legacy (the generation whose URL holds the token)' },
    REPORTER_PROJECT: { describe: 'the project, when the token reads several' },
    REPORTER_DURATION_UNIT: { describe: 'ms or s: the unit the platform gives durations in' },
    REPORTER_CONFIG: {
      describe: 'a JSON file of projects (baseUrl, token, api, project), a schedule and alerts',
    },
    REPORTER_CONCURRENCY: { describe: 'requests in flight per project at the start' },
    REPORTER_MAX_CONCURRENCY: {
      describe: 'the most requests in flight per project, grown to while the server keeps up',
    },
    REPORTER_RATE_LIMIT_RPM: { describe: 'a hard cap in requests per minute (none: only 429s slow it)' },
    REPORTER_TIMEOUT_MS: { describe: 'the timeout of one request' },
    REPORTER_RETRIES: { describe: 'retries of a failed request' },
    REPORTER_PAGE_SIZE: { describe: 'records per page' },
    REPORTER_LOOKBACK_HOURS: { describe: 'how far back an incremental sync reads again' },
    REPORTER_LOOKBACK_READ: { describe: 'changes or whole: what the look-back reads' },
    REPORTER_STATUS_READ: {
      describe: "report or by-client: a window's delivery statuses from one messages report, or per client",
    },
    REPORTER_STATUS_REPORT_WAIT_SECONDS: {
      describe: 'how long a window waits for its statuses report before reading per client',
    },
    REPORTER_SAFETY_LAG_MINUTES: { describe: 'how far behind now a sync stops' },
    REPORTER_WINDOW_HOURS: { describe: 'the length of one committed window' },
    REPORTER_WINDOW_MAX_SESSIONS: { describe: 'sessions above which a window is halved' },
    REPORTER_WINDOW_MAX_BYTES: { describe: 'estimated bytes above which a window is halved' },
    REPORTER_SYNC_DUCKDB_MEMORY_LIMIT: { describe: "DuckDB's memory limit while syncing" },
    REPORTER_SYNC_DUCKDB_THREADS: { describe: "DuckDB's threads while syncing" },
    REPORTER_HISTORY_DAYS: { describe: 'how far back the first sync reads' },
    REPORTER_MAX_REJECT_SHARE: { describe: 'the share of rejected records above which a run fails' },
  }),
  tables: REPORTER_TABLES,
  errorCodes: selectErrorCodes('reporter.', 'sync.', 'config.project'),
  jobs: [],
  commands: [],
};

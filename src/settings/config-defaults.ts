// The defaults of the settings, by name, in a module of their own: src/config.ts applies them and every
// command's --help shows them from here, and `reporter-etl --help` reads two without loading the config's
// validation (zod) or any unit: the CLI's start-up stays under half a second.

/**
 * The defaults of the settings, by name: loadConfig applies them and the commands' --help texts show them
 * from here, so a help text cannot state a default the code does not use.
 */
export const CONFIG_DEFAULTS = {
  REPORTER_BASE_URL: 'https://app.jaicp.com',
  REPORTER_DATA_DIR: './data',
  REPORTER_CONCURRENCY: 4,
  REPORTER_MAX_CONCURRENCY: 32,
  REPORTER_SYNC_DUCKDB_THREADS: 1,
  REPORTER_DUCKDB_THREADS: 2,
  REPORTER_TIMEOUT_MS: 30_000,
  REPORTER_RETRIES: 6,
  REPORTER_PAGE_SIZE: 500,
  REPORTER_LOOKBACK_HOURS: 48,
  REPORTER_LOOKBACK_READ: 'changes',
  REPORTER_STATUS_READ: 'report',
  REPORTER_STATUS_REPORT_WAIT_SECONDS: 300,
  REPORTER_SAFETY_LAG_MINUTES: 5,
  REPORTER_WINDOW_HOURS: 48,
  REPORTER_WINDOW_MAX_SESSIONS: 1500,
  REPORTER_HISTORY_DAYS: 30,
  REPORTER_MAX_REJECT_SHARE: 0.01,
  REPORTER_LOCK_WAIT_SECONDS: 30,
  REPORTER_SQL_TIMEOUT_SECONDS: 60,
  REPORTER_TZ: 'UTC',
  REPORTER_RETENTION_DAYS: 30,
  REPORTER_SHUTDOWN_GRACE_SECONDS: 30,
  REPORTER_CHATAPI_PATH: '/chatapi',
  REPORTER_CHATAPI_TIMEZONE: 'UTC',
  REPORTER_WEBHOOKS_HOST: '127.0.0.1',
  REPORTER_WEBHOOKS_PORT: 8080,
  REPORTER_WEBHOOKS_LOAD_SECONDS: 1,
  REPORTER_CLICKHOUSE_USER: 'default',
  REPORTER_CLICKHOUSE_DATABASE: 'reporter_etl',
  REPORTER_KB_BASE_URL: 'https://khub.just-ai.com',
} as const;

// Configuration: the environment (and optionally a JSON config file for several projects) validated by zod
// into a frozen Config. Every error names the setting at fault (REPORTER_TOKEN, projects[1].baseUrl, ...).
import { readFileSync, type Stats, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { validateDetailed } from 'node-cron';
import { z } from 'zod';
import { UsageError } from './errors.js';
import { SECRET_MIN_LENGTH } from './secrets/redact-secrets.js';
import {
  ALERT_RULE_KEYS,
  type AlertRule,
  alertRulesSchema,
  alertRulesSetting,
} from './settings/alert-rules.js';
import { type ChatApiChannel, chatApiChannelsSetting } from './settings/chatapi-channels.js';
import { CONFIG_DEFAULTS } from './settings/config-defaults.js';
import { type EmbeddingsEndpoint, embeddingsUrlSetting } from './settings/embeddings-url.js';
import { type PushgateTarget, pushgateUrlSetting } from './settings/pushgate-url.js';
import { parseJsonText } from './text/parse-json-text.js';
import { suggestKey } from './text/suggest-near.js';
import { isTimeZone } from './time/time-zone.js';

export { CONFIG_DEFAULTS, suggestKey };

const D = CONFIG_DEFAULTS;

/** DuckDB's memory limit while syncing unless REPORTER_SYNC_DUCKDB_MEMORY_LIMIT says otherwise. */
export const SYNC_DUCKDB_MEMORY_LIMIT = '64MB';
const SYNC_DUCKDB_MEMORY_BYTES = 64e6;

/** REPORTER_WINDOW_MAX_BYTES unless set: a quarter of the sync pool (a commit holds its window about twice). */
export function defaultWindowMaxBytes(syncMemoryBytes: number = SYNC_DUCKDB_MEMORY_BYTES): number {
  return Math.round(syncMemoryBytes / 4);
}

/** DuckDB's memory limit for everything but the sync unless REPORTER_DUCKDB_MEMORY_LIMIT says otherwise. */
export const DUCKDB_MEMORY_LIMIT = '256MB';

/**
 * REPORTER_WEBHOOKS_LOAD_MAX_BYTES unless set: the spooled bytes of one webhook load transaction. DuckDB parses
 * a batch's rows outside its memory limit; unbounded, 2,000 bodies of 50 KB ran out of it and peaked at 2.6 GB
 * RSS. Bounded, the peak (0.7-1.0 GB at 1 MiB, 0.8-1.1 GB at 8 MiB) was mostly DuckDB's checkpoints of those
 * rows (now rarer during a load: webhooks/load-duckdb-settings.ts), and larger batches were no faster.
 */
export const WEBHOOKS_LOAD_MAX_BYTES = 1024 * 1024;

const intFromEnv = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'expected a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const numberFromEnv = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'expected a number')
    .transform(Number)
    .pipe(z.number().min(min).max(max));

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

/** A size the way DuckDB writes it (96MB, 1.5GB, 512MiB; MB = 1000², MiB = 1024²): its text and bytes. */
const sizeFromEnv = (minBytes: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i, 'expected a size like 96MB, 1GB or 512MiB')
    .transform((text) => {
      const [, number, unit] = /^(\d+(?:\.\d+)?)\s*(\w+)$/.exec(text)!;
      return { text, bytes: Math.round(Number(number) * SIZE_UNITS[unit!.toLowerCase()]!) };
    })
    .refine((size) => size.bytes >= minBytes, `expected at least ${minBytes.toLocaleString('en-US')} bytes`);

/** An on/off setting: true, false, 1, 0, yes or no (any case). */
const flagFromEnv = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no'], 'expected true or false'))
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** What is wrong with a base URL setting, in one sentence (a scheme-less one is one problem, said once). */
function urlProblem(text: string): string | undefined {
  const expected = 'expected an absolute http or https URL like https://app.jaicp.com';
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text))
    return `${expected} (it has no scheme: add https:// or http://)`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return expected;
  }
  return url.protocol === 'http:' || url.protocol === 'https:'
    ? undefined
    : `${expected}, not ${url.protocol}//`;
}

const urlSetting = z
  .string()
  .trim()
  .superRefine((text, ctx) => {
    const problem = urlProblem(text);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((u) => u.replace(/\/+$/, ''));

/** C0 controls (a line break, a tab, ...), DEL and C1: never part of a secret, which goes into a header. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** Why a secret shorter than SECRET_MIN_LENGTH is refused (redact-secrets.ts cannot hide it in the logs). */
const SECRET_TOO_SHORT = `is too short: a secret is at least ${SECRET_MIN_LENGTH} characters, shorter ones cannot be kept out of the logs (its value is not shown)`;

const isLongEnoughSecret = (secret: string): boolean => [...secret].length >= SECRET_MIN_LENGTH;

/**
 * A secret (a token, a key, a password): refused at load when it holds a control character, typically the
 * line break of a file read into the variable, or when it is too short to redact. The message names the
 * setting, never the value.
 */
const secretSetting = (emptyMessage = 'must not be empty') =>
  z
    .string()
    .trim()
    .min(1, { message: emptyMessage, abort: true })
    .refine(
      (secret) => !CONTROL_CHARACTER.test(secret),
      'holds a control character (a line break, a tab, ...), which no secret has: set it again without it (its value is not shown)',
    )
    .refine(isLongEnoughSecret, SECRET_TOO_SHORT);

const timeZoneSetting = z
  .string()
  .trim()
  .refine(isTimeZone, 'expected an IANA time zone like Europe/Moscow or UTC');

/** A node-cron expression (5 fields, or 6 with seconds first); the message says which field is wrong. */
const cronSetting = z
  .string()
  .trim()
  .superRefine((expression, ctx) => {
    const result = validateDetailed(expression);
    if (!result.valid)
      ctx.addIssue({
        code: 'custom',
        message: `"${expression}" is not a cron expression (${result.errors.map((e) => e.message).join('; ') || 'expected 5 fields: minute hour day-of-month month day-of-week, e.g. */15 * * * *'})`,
      });
  });

/** REPORTER_JOBS: job ids separated by commas or spaces, or `all`. */
const jobListSetting = z
  .string()
  .trim()
  .transform((text) => text.split(/[\s,]+/).filter((id) => id !== ''))
  .pipe(
    z
      .array(z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'job ids are lower-case words joined by dashes'))
      .min(1, 'list at least one job id, or "all"'),
  )
  .transform((ids) => (ids.length === 1 && ids[0] === 'all' ? null : [...new Set(ids)]));

/** The scheduler's settings in the REPORTER_CONFIG file (the environment wins over them). */
const scheduleFileSchema = z
  .object({
    timeZone: timeZoneSetting.optional(),
    jobs: z
      .array(z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'job ids are lower-case words joined by dashes'))
      .optional(),
    cron: z.record(z.string(), cronSetting).optional(),
    retentionDays: z.number().min(0.01).max(36_500).optional(),
    shutdownGraceSeconds: z.number().min(0).max(3600).optional(),
  })
  .strict();

const SCHEDULE_KEY = /^REPORTER_SCHEDULE_([A-Z0-9_]+)$/;

/** REPORTER_SCHEDULE_DAILY_REPORT -> daily-report. */
export function jobIdOfScheduleKey(key: string): string | undefined {
  const match = SCHEDULE_KEY.exec(key);
  return match ? match[1]!.toLowerCase().replace(/_/g, '-') : undefined;
}

const projectSchema = z
  .object({
    baseUrl: urlSetting.default(CONFIG_DEFAULTS.REPORTER_BASE_URL),
    token: secretSetting('is required and must not be empty'),
    api: z.enum(['v1', 'legacy']).default('v1'),
    project: z.string().trim().min(1).optional(),
    durationUnit: z.enum(['ms', 's']).default('ms'),
  })
  .strict();

export type ProjectConfig = z.infer<typeof projectSchema>;

export const ENV_KEYS = {
  REPORTER_BASE_URL: urlSetting.optional(),
  REPORTER_TOKEN: secretSetting('is required and must not be empty').optional(),
  REPORTER_API: z.enum(['v1', 'legacy']).optional(),
  REPORTER_PROJECT: z.string().trim().min(1).optional(),
  REPORTER_DURATION_UNIT: z.enum(['ms', 's']).optional(),
  REPORTER_CONFIG: z.string().trim().min(1).optional(),
  REPORTER_DATA_DIR: z.string().trim().min(1).default(D.REPORTER_DATA_DIR),
  REPORTER_CONCURRENCY: intFromEnv(1, 64).default(D.REPORTER_CONCURRENCY),
  // the most the Reporter client grows to while the server keeps up (src/http/adaptive-concurrency.ts)
  REPORTER_MAX_CONCURRENCY: intFromEnv(1, 256).optional(),
  // no fixed rate by default: the client slows down when the server answers 429 (src/platform/reporter/rate-limiter.ts)
  REPORTER_RATE_LIMIT_RPM: intFromEnv(1, 1_000_000).optional(),
  REPORTER_TIMEOUT_MS: intFromEnv(100, 600_000).default(D.REPORTER_TIMEOUT_MS),
  REPORTER_RETRIES: intFromEnv(0, 20).default(D.REPORTER_RETRIES),
  REPORTER_PAGE_SIZE: intFromEnv(1, 10_000).default(D.REPORTER_PAGE_SIZE),
  REPORTER_LOOKBACK_HOURS: numberFromEnv(0, 24 * 365).default(D.REPORTER_LOOKBACK_HOURS),
  REPORTER_LOOKBACK_READ: z
    .enum(['changes', 'whole'], 'expected changes or whole')
    .default(D.REPORTER_LOOKBACK_READ as 'changes'),
  REPORTER_STATUS_READ: z
    .enum(['report', 'by-client'], 'expected report or by-client')
    .default(D.REPORTER_STATUS_READ as 'report'),
  REPORTER_STATUS_REPORT_WAIT_SECONDS: intFromEnv(1, 3_600).default(D.REPORTER_STATUS_REPORT_WAIT_SECONDS),
  REPORTER_SAFETY_LAG_MINUTES: numberFromEnv(0, 24 * 60).default(D.REPORTER_SAFETY_LAG_MINUTES),
  REPORTER_WINDOW_HOURS: numberFromEnv(0.01, 24 * 31).default(D.REPORTER_WINDOW_HOURS),
  REPORTER_WINDOW_MAX_SESSIONS: intFromEnv(10, 1_000_000).default(D.REPORTER_WINDOW_MAX_SESSIONS),
  REPORTER_WINDOW_MAX_BYTES: sizeFromEnv(1000).optional(),
  REPORTER_SYNC_DUCKDB_MEMORY_LIMIT: sizeFromEnv(1_000_000).optional(),
  REPORTER_SYNC_DUCKDB_THREADS: intFromEnv(1, 64).default(D.REPORTER_SYNC_DUCKDB_THREADS),
  REPORTER_DUCKDB_MEMORY_LIMIT: sizeFromEnv(1_000_000).optional(),
  REPORTER_DUCKDB_THREADS: intFromEnv(1, 64).default(D.REPORTER_DUCKDB_THREADS),
  REPORTER_HISTORY_DAYS: numberFromEnv(0.01, 3650).default(D.REPORTER_HISTORY_DAYS),
  REPORTER_MAX_REJECT_SHARE: numberFromEnv(0, 1).default(D.REPORTER_MAX_REJECT_SHARE),
  REPORTER_LOCK_WAIT_SECONDS: numberFromEnv(0, 3600).default(D.REPORTER_LOCK_WAIT_SECONDS),
  REPORTER_SQL_TIMEOUT_SECONDS: numberFromEnv(0, 86_400).default(D.REPORTER_SQL_TIMEOUT_SECONDS),
  REPORTER_TZ: timeZoneSetting.optional(),
  REPORTER_JOBS: jobListSetting.optional(),
  REPORTER_RETENTION_DAYS: numberFromEnv(0.01, 36_500).optional(),
  REPORTER_SHUTDOWN_GRACE_SECONDS: numberFromEnv(0, 3600).optional(),
  REPORTER_DAILY_REPORT_HTML: flagFromEnv.optional(),
  REPORTER_CHATAPI_CHANNELS: chatApiChannelsSetting.optional(),
  REPORTER_CHATAPI_BASE_URL: urlSetting.optional(),
  REPORTER_CHATAPI_PATH: z
    .string()
    .trim()
    .regex(/^(\/[A-Za-z0-9._-]+)+$/, 'expected a path like /chatapi or /chatadapter/chatapi')
    .default(D.REPORTER_CHATAPI_PATH),
  REPORTER_CHATAPI_TIMEZONE: timeZoneSetting.default(D.REPORTER_CHATAPI_TIMEZONE),
  REPORTER_WEBHOOK_KEY: z
    .string()
    .min(16, 'must be at least 16 characters (a random secret)')
    .refine((key) => !CONTROL_CHARACTER.test(key), 'holds a control character, which no secret has')
    .optional(),
  REPORTER_WEBHOOKS_HOST: z.string().trim().min(1).default(D.REPORTER_WEBHOOKS_HOST),
  REPORTER_WEBHOOKS_PORT: intFromEnv(0, 65_535).optional(),
  REPORTER_WEBHOOKS_LOAD_SECONDS: numberFromEnv(0.05, 3600).default(D.REPORTER_WEBHOOKS_LOAD_SECONDS),
  REPORTER_WEBHOOKS_LOAD_MAX_BYTES: sizeFromEnv(1000).optional(),
  REPORTER_LAKE_DIR: z.string().trim().min(1).optional(),
  REPORTER_CLICKHOUSE_URL: urlSetting.optional(),
  REPORTER_CLICKHOUSE_USER: z.string().trim().min(1).default(D.REPORTER_CLICKHOUSE_USER),
  REPORTER_CLICKHOUSE_PASSWORD: z
    .string()
    .refine((password) => !CONTROL_CHARACTER.test(password), 'holds a control character, which no secret has')
    .refine((password) => password === '' || isLongEnoughSecret(password), SECRET_TOO_SHORT)
    .default(''),
  REPORTER_CLICKHOUSE_DATABASE: z
    .string()
    .trim()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'expected a database name: letters, digits and _')
    .default(D.REPORTER_CLICKHOUSE_DATABASE),
  REPORTER_PUSHGATE_URL: pushgateUrlSetting.optional(),
  REPORTER_PUSHGATE_BASE_URL: urlSetting.optional(),
  REPORTER_ALERTS: alertRulesSetting.optional(),
  REPORTER_KB_BASE_URL: urlSetting.default(D.REPORTER_KB_BASE_URL),
  REPORTER_KB_KEY: secretSetting().optional(),
  REPORTER_KB_ADMIN_KEY: secretSetting().optional(),
  REPORTER_EMBEDDINGS_URL: embeddingsUrlSetting.optional(),
  REPORTER_EMBEDDINGS_MODEL: z.string().trim().min(1).max(200).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
} as const;

const envSchema = z.object(ENV_KEYS);

export interface Config {
  projects: readonly ProjectConfig[];
  dataDir: string;
  warehousePath: string;
  /** Requests in flight at the start (REPORTER_CONCURRENCY). */
  concurrency: number;
  /**
   * The most requests in flight the Reporter client grows to while the server's round trip stays flat and no
   * 429 comes back (REPORTER_MAX_CONCURRENCY; default the larger of 32 and REPORTER_CONCURRENCY).
   */
  maxConcurrency: number;
  /** A hard cap in requests per minute (REPORTER_RATE_LIMIT_RPM); undefined: none, only 429s slow it. */
  rateLimitPerMinute: number | undefined;
  timeoutMs: number;
  retries: number;
  pageSize: number;
  lookbackMs: number;
  /** How an incremental run reads its look-back: only what can have changed, or every record again. */
  lookbackRead: 'changes' | 'whole';
  /** Where a window's delivery statuses come from: one messages report task, or messages/by-client reads. */
  statusRead: 'report' | 'by-client';
  /** How long a window waits for its statuses report before reading per client. */
  statusReportWaitMs: number;
  safetyLagMs: number;
  windowMs: number;
  windowMaxSessions: number;
  /** A window whose rows take more (estimated as DuckDB stages them) is halved before its commit. */
  windowMaxBytes: number;
  /** DuckDB's memory limit while syncing, as DuckDB reads it (REPORTER_SYNC_DUCKDB_MEMORY_LIMIT). */
  syncMemoryLimit: string;
  /** DuckDB's worker threads while syncing (REPORTER_SYNC_DUCKDB_THREADS). */
  syncThreads: number;
  /** DuckDB's memory limit for statistics, reports and the rest, as DuckDB reads it (REPORTER_DUCKDB_MEMORY_LIMIT). */
  memoryLimit: string;
  /** DuckDB's worker threads for statistics, reports and the rest (REPORTER_DUCKDB_THREADS). */
  threads: number;
  historyMs: number;
  maxRejectShare: number;
  lockWaitMs: number;
  /** How long an analyst's query may run in the sandbox (`sql`, `--sql`); 0: no limit (REPORTER_SQL_TIMEOUT_SECONDS). */
  sqlTimeoutMs: number;
  /** LOG_LEVEL; undefined: info, or warn for pretty lines on a terminal (createCommandLogger). */
  logLevel?: string | undefined;
  /** LOG_FORMAT: JSON or human lines; undefined: pretty when stderr is a terminal, JSON otherwise. */
  logFormat?: 'json' | 'pretty' | undefined;
  /** IANA zone of the job schedules, of "yesterday" in the daily jobs, and every command's default --tz (REPORTER_TZ). */
  timeZone: string;
  /** The jobs `schedule` runs (REPORTER_JOBS); null: every registered job. */
  jobs: readonly string[] | null;
  /** Cron expressions that replace a job's default schedule, by job id, with the setting that gave it. */
  schedules: Readonly<Record<string, { expression: string; setting: string }>>;
  /** Age after which `retention` deletes report files and rejected records (REPORTER_RETENTION_DAYS). */
  retentionMs: number;
  /** How long a stopping scheduler waits for the run in flight (REPORTER_SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceMs: number;
  /** `daily-report` also writes the summary as HTML beside the XLSX (REPORTER_DAILY_REPORT_HTML). */
  dailyReportHtml: boolean;
  chatApi: ChatApiConfig;
  webhooks: WebhooksConfig;
  /** REPORTER_LAKE_DIR (absolute): where the export-parquet job writes the Parquet lake; undefined: the job is off. */
  lakeDir: string | undefined;
  /** The ClickHouse destination (REPORTER_CLICKHOUSE_*); undefined without REPORTER_CLICKHOUSE_URL. */
  clickhouse: { url: string; user: string; password: string; database: string } | undefined;
  pushgate: PushgateConfig;
  /** Alert rules evaluated after each sync (REPORTER_ALERTS, else "alerts" of the REPORTER_CONFIG file). */
  alerts: readonly AlertRule[];
  kb: KbConfig;
  /** The embeddings endpoint `unhandled` clusters with (REPORTER_EMBEDDINGS_*); undefined: its own LSA. */
  embeddings: EmbeddingsConfig | undefined;
  /** The REPORTER_CONFIG file the projects came from (absolute); undefined: REPORTER_BASE_URL and REPORTER_TOKEN. */
  projectsFile?: string | undefined;
}

/** The knowledge base service (docs/kb.md). Its keys are secrets: never logged or stored. */
export interface KbConfig {
  /** REPORTER_KB_BASE_URL: the service's address; its operations live under `<it>/api/knowledge-hub`. */
  baseUrl: string;
  /** REPORTER_KB_KEY: the project key; undefined: `kb sync` refuses and the kb-sync job is not scheduled. */
  key: string | undefined;
  /** REPORTER_KB_ADMIN_KEY: the account key for API keys, access groups and projects; undefined: skipped. */
  adminKey: string | undefined;
}

/** An OpenAI-compatible embeddings endpoint (docs/unhandled.md#embeddings). Its key is a secret. */
export interface EmbeddingsConfig extends EmbeddingsEndpoint {
  /** REPORTER_EMBEDDINGS_MODEL: the `model` each request names; undefined: none sent. */
  model: string | undefined;
}

/** Pushgate (docs/pushgate.md). */
export interface PushgateConfig {
  /** REPORTER_PUSHGATE_URL: where run notifications go; undefined: none are sent. A secret. */
  notify: PushgateTarget | undefined;
  /** REPORTER_PUSHGATE_BASE_URL, else the notify URL's base, else the first project's base URL. */
  baseUrl: string;
  /** The setting baseUrl came from, for messages (the notify URL's base is no secret: the pushback id is). */
  baseUrlSetting?: string;
}

/** The webhook receiver (docs/webhooks.md). */
export interface WebhooksConfig {
  /** REPORTER_WEBHOOK_KEY: requests must carry ?key=<it>; never logged. */
  key: string | undefined;
  /** REPORTER_WEBHOOKS_HOST. */
  host: string;
  /** REPORTER_WEBHOOKS_PORT: `schedule` runs the receiver beside the jobs when it is set. */
  port: number | undefined;
  /** REPORTER_WEBHOOKS_LOAD_SECONDS: how often the spool is loaded into the warehouse, in ms. */
  loadEveryMs: number;
  /** REPORTER_WEBHOOKS_LOAD_MAX_BYTES: the spooled bytes of one load transaction at most. */
  loadMaxBytes: number;
}

/** The Chat API channels read by `chatapi-events` and the sync (docs/chatapi.md). */
export interface ChatApiConfig {
  /** REPORTER_CHATAPI_CHANNELS; empty: the Chat API is not read. */
  channels: readonly ChatApiChannel[];
  /** REPORTER_CHATAPI_BASE_URL, else the first project's base URL (REPORTER_BASE_URL). */
  baseUrl: string;
  /** The setting baseUrl came from, for messages. */
  baseUrlSetting?: string;
  /** REPORTER_CHATAPI_PATH: `/chatapi`, or `/chatadapter/chatapi` on some installations. */
  path: string;
  /** REPORTER_CHATAPI_TIMEZONE: the zone of the Chat API's local date-times (they carry none). */
  timeZone: string;
}

/** Where each scheduler setting came from, for messages: the environment wins over the config file. */
interface ScheduleSettings {
  timeZone: string;
  jobs: readonly string[] | null;
  schedules: Record<string, { expression: string; setting: string }>;
  retentionDays: number;
  shutdownGraceSeconds: number;
}

function readScheduleSettings(
  env: Record<string, string | undefined>,
  e: z.infer<typeof envSchema>,
  file: z.infer<typeof scheduleFileSchema> | undefined,
  fileName: string | undefined,
): ScheduleSettings {
  const schedules: ScheduleSettings['schedules'] = {};
  for (const [jobId, expression] of Object.entries(file?.cron ?? {}))
    schedules[jobId] = { expression, setting: `schedule.cron.${jobId} in ${fileName}` };
  const problems: string[] = [];
  for (const [key, value] of Object.entries(env)) {
    const jobId = jobIdOfScheduleKey(key);
    if (jobId === undefined || value === undefined || value.trim() === '') continue;
    const parsed = cronSetting.safeParse(value);
    if (!parsed.success) problems.push(`${key}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
    else schedules[jobId] = { expression: parsed.data, setting: key };
  }
  if (problems.length > 0)
    throw new UsageError(`bad configuration: ${problems.join('; ')}`, 'config.invalid');
  return {
    timeZone: e.REPORTER_TZ ?? file?.timeZone ?? D.REPORTER_TZ,
    jobs: e.REPORTER_JOBS !== undefined ? e.REPORTER_JOBS : file?.jobs ? [...new Set(file.jobs)] : null,
    schedules,
    retentionDays: e.REPORTER_RETENTION_DAYS ?? file?.retentionDays ?? D.REPORTER_RETENTION_DAYS,
    shutdownGraceSeconds:
      e.REPORTER_SHUTDOWN_GRACE_SECONDS ?? file?.shutdownGraceSeconds ?? D.REPORTER_SHUTDOWN_GRACE_SECONDS,
  };
}

function describeIssues(error: z.ZodError, prefix: (path: PropertyKey[]) => string): string {
  return error.issues.map((issue) => `${prefix(issue.path)}: ${issue.message}`).join('; ');
}

/** A configuration file is small: anything larger is not one (and would be read whole before JSON.parse). */
const MAX_CONFIG_FILE_BYTES = 1_000_000;

/**
 * REPORTER_CONFIG must name a regular file of at most MAX_CONFIG_FILE_BYTES: a device (/dev/zero), a named
 * pipe with no writer or a huge file would otherwise hang every command at start, or fill its memory.
 */
function assertConfigFileReadable(file: string): void {
  let stat: Stats;
  try {
    stat = statSync(file);
  } catch (error) {
    throw new UsageError(
      `REPORTER_CONFIG: cannot read ${file} (${error instanceof Error ? error.message : String(error)})`,
      'config.invalid',
    );
  }
  if (!stat.isFile())
    throw new UsageError(
      `REPORTER_CONFIG: ${file} is ${stat.isDirectory() ? 'a folder' : 'not a regular file (a device or a pipe)'}; name a JSON file`,
      'config.invalid',
    );
  if (stat.size > MAX_CONFIG_FILE_BYTES)
    throw new UsageError(
      `REPORTER_CONFIG: ${file} holds ${stat.size.toLocaleString('en')} bytes, more than a configuration file (at most ${MAX_CONFIG_FILE_BYTES.toLocaleString('en')}); name the JSON file of the projects`,
      'config.invalid',
    );
}

/** The REPORTER_CONFIG file: strict objects, so a misspelled key is an error, not a silently ignored one. */
const configFileSchema = z
  .object({
    projects: z.array(projectSchema).min(1, 'list at least one project'),
    schedule: scheduleFileSchema.optional(),
    alerts: alertRulesSchema.optional(),
  })
  .strict();

/** The keys an object of the config file may have, by its path (projects[n], schedule or the top). */
function keysAllowedAt(path: readonly PropertyKey[]): readonly string[] {
  if (path.length === 0) return Object.keys(configFileSchema.shape);
  if (path[0] === 'projects' && path.length === 2) return Object.keys(projectSchema.shape);
  if (path[0] === 'schedule' && path.length === 1) return Object.keys(scheduleFileSchema.shape);
  if (path[0] === 'alerts' && path.length === 2) return ALERT_RULE_KEYS;
  return [];
}

/** `projects[0].baseUrl` for a path of the config file. */
function filePath(path: readonly PropertyKey[]): string {
  return path
    .map((x) => (typeof x === 'number' ? `[${x}]` : `.${String(x)}`))
    .join('')
    .replace(/^\./, '');
}

/** The file's issues in our words: every unknown key named by its full path, with a suggestion. */
function describeFileIssues(error: z.ZodError): string {
  return error.issues
    .flatMap((issue) => {
      if (issue.code !== 'unrecognized_keys') return [`${filePath(issue.path) || '(top)'}: ${issue.message}`];
      const allowed = keysAllowedAt(issue.path);
      return issue.keys.map((key) => {
        const suggestion = suggestKey(key, allowed);
        return `${filePath([...issue.path, key])}: unknown key${suggestion ? ` (did you mean "${suggestion}"?)` : ''}; known keys here: ${allowed.join(', ')}`;
      });
    })
    .join('; ');
}

/**
 * The setting of the n-th project's base URL, as messages name it: `REPORTER_CONFIG projects[n].baseUrl` when the
 * projects come from that file, else REPORTER_BASE_URL.
 */
export function projectBaseUrlSetting(projectsFile: string | undefined, index = 0): string {
  return projectsFile === undefined ? 'REPORTER_BASE_URL' : `REPORTER_CONFIG projects[${index}].baseUrl`;
}

const firstBaseUrlSetting = (fileName: string | undefined): string => projectBaseUrlSetting(fileName, 0);

type EnvSettings = z.infer<typeof envSchema>;

/** The projects and what else REPORTER_CONFIG's file gives (its schedule, its alerts), and the file's path. */
interface ProjectSettings {
  projects: ProjectConfig[];
  scheduleFile: z.infer<typeof scheduleFileSchema> | undefined;
  fileAlerts: AlertRule[] | undefined;
  fileName: string | undefined;
}

/** The environment's keys of ENV_KEYS (set, not empty), validated. */
function parseEnv(env: Record<string, string | undefined>): EnvSettings {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => k in ENV_KEYS && v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success)
    throw new UsageError(
      `bad configuration: ${describeIssues(parsed.error, (p) => String(p[0]))}`,
      'config.invalid',
    );
  return parsed.data;
}

/** REPORTER_CONFIG's file, read and validated. */
function readConfigFile(setting: string): ProjectSettings {
  const file = resolve(setting);
  assertConfigFileReadable(file);
  let raw: unknown;
  const text = readFileSync(file, 'utf8');
  try {
    // never JSON.parse's message: it quotes the text (a token, or a line of a file a link leads to); this
    // error says the line and column of the fault instead
    raw = parseJsonText(text);
  } catch (error) {
    throw new UsageError(
      `REPORTER_CONFIG: cannot read ${file} as JSON (${error instanceof Error ? error.message : String(error)})`,
      'config.invalid',
    );
  }
  const result = configFileSchema.safeParse(raw);
  if (!result.success) {
    throw new UsageError(
      `bad configuration in ${file} (REPORTER_CONFIG): ${describeFileIssues(result.error)}`,
      'config.invalid',
    );
  }
  return {
    projects: result.data.projects,
    scheduleFile: result.data.schedule,
    fileAlerts: result.data.alerts,
    fileName: file,
  };
}

/** The projects: REPORTER_CONFIG's, else the one of REPORTER_TOKEN, else none (when no token is required). */
function readProjects(e: EnvSettings, requireToken: boolean): ProjectSettings {
  if (e.REPORTER_CONFIG !== undefined) return readConfigFile(e.REPORTER_CONFIG);
  const none = { scheduleFile: undefined, fileAlerts: undefined, fileName: undefined };
  if (e.REPORTER_TOKEN !== undefined) {
    const project = projectSchema.parse({
      baseUrl: e.REPORTER_BASE_URL,
      token: e.REPORTER_TOKEN,
      api: e.REPORTER_API,
      project: e.REPORTER_PROJECT,
      durationUnit: e.REPORTER_DURATION_UNIT,
    });
    return { projects: [project], ...none };
  }
  if (requireToken) {
    throw new UsageError(
      'REPORTER_TOKEN: is required (the Reporter API token; or REPORTER_CONFIG naming a JSON file with "projects")',
      'config.missing',
    );
  }
  return { projects: [], ...none };
}

/** Throws when a project (address, name, API generation) is listed twice. */
function assertProjectsUnique(projects: readonly ProjectConfig[]): void {
  const keys = new Set<string>();
  for (const p of projects) {
    const key = `${p.baseUrl}|${p.project ?? ''}|${p.api}`;
    if (keys.has(key))
      throw new UsageError(
        `bad configuration: project ${p.project ?? '(default)'} at ${p.baseUrl} is listed twice`,
        'config.invalid',
      );
    keys.add(key);
  }
}

/** The platform address a sibling interface falls back to: the first project's, else REPORTER_BASE_URL's. */
const fallbackBaseUrl = (e: EnvSettings, projects: readonly ProjectConfig[]): string =>
  projects[0]?.baseUrl ?? e.REPORTER_BASE_URL ?? D.REPORTER_BASE_URL;

function buildChatApiConfig(e: EnvSettings, p: ProjectSettings): ChatApiConfig {
  return Object.freeze({
    channels: Object.freeze((e.REPORTER_CHATAPI_CHANNELS ?? []).map((c) => Object.freeze(c))),
    baseUrl: e.REPORTER_CHATAPI_BASE_URL ?? fallbackBaseUrl(e, p.projects),
    baseUrlSetting:
      e.REPORTER_CHATAPI_BASE_URL !== undefined
        ? 'REPORTER_CHATAPI_BASE_URL'
        : firstBaseUrlSetting(p.fileName),
    path: e.REPORTER_CHATAPI_PATH,
    timeZone: e.REPORTER_CHATAPI_TIMEZONE,
  });
}

function buildPushgateConfig(e: EnvSettings, p: ProjectSettings): PushgateConfig {
  return Object.freeze({
    notify: e.REPORTER_PUSHGATE_URL === undefined ? undefined : Object.freeze(e.REPORTER_PUSHGATE_URL),
    baseUrl: (
      e.REPORTER_PUSHGATE_BASE_URL ??
      e.REPORTER_PUSHGATE_URL?.baseUrl ??
      fallbackBaseUrl(e, p.projects)
    ).replace(/\/+$/, ''),
    baseUrlSetting:
      e.REPORTER_PUSHGATE_BASE_URL !== undefined
        ? 'REPORTER_PUSHGATE_BASE_URL'
        : e.REPORTER_PUSHGATE_URL !== undefined
          ? 'REPORTER_PUSHGATE_URL'
          : firstBaseUrlSetting(p.fileName),
  });
}

/** REPORTER_MAX_CONCURRENCY, at least REPORTER_CONCURRENCY (the start): a lower one is refused, naming both. */
function maxConcurrency(e: EnvSettings): number {
  const max = e.REPORTER_MAX_CONCURRENCY;
  if (max === undefined) return Math.max(D.REPORTER_MAX_CONCURRENCY, e.REPORTER_CONCURRENCY);
  if (max < e.REPORTER_CONCURRENCY)
    throw new UsageError(
      `bad configuration: REPORTER_MAX_CONCURRENCY (${max}) is below REPORTER_CONCURRENCY (${e.REPORTER_CONCURRENCY}), the requests in flight at the start: raise it, or lower REPORTER_CONCURRENCY`,
      'config.invalid',
    );
  return max;
}

/** The settings of the sync's reading and DuckDB (windows, look-back, memory, threads). */
function buildSyncSettings(e: EnvSettings) {
  const syncMemory = e.REPORTER_SYNC_DUCKDB_MEMORY_LIMIT ?? {
    text: SYNC_DUCKDB_MEMORY_LIMIT,
    bytes: SYNC_DUCKDB_MEMORY_BYTES,
  };
  return {
    concurrency: e.REPORTER_CONCURRENCY,
    maxConcurrency: maxConcurrency(e),
    rateLimitPerMinute: e.REPORTER_RATE_LIMIT_RPM,
    timeoutMs: e.REPORTER_TIMEOUT_MS,
    retries: e.REPORTER_RETRIES,
    pageSize: e.REPORTER_PAGE_SIZE,
    lookbackMs: e.REPORTER_LOOKBACK_HOURS * 3_600_000,
    lookbackRead: e.REPORTER_LOOKBACK_READ,
    statusRead: e.REPORTER_STATUS_READ,
    statusReportWaitMs: e.REPORTER_STATUS_REPORT_WAIT_SECONDS * 1000,
    safetyLagMs: e.REPORTER_SAFETY_LAG_MINUTES * 60_000,
    windowMs: e.REPORTER_WINDOW_HOURS * 3_600_000,
    windowMaxSessions: e.REPORTER_WINDOW_MAX_SESSIONS,
    // a commit holds its window about twice (the staged rows and the inserted ones) beside the rest of the pool
    windowMaxBytes: e.REPORTER_WINDOW_MAX_BYTES?.bytes ?? defaultWindowMaxBytes(syncMemory.bytes),
    syncMemoryLimit: syncMemory.text,
    syncThreads: e.REPORTER_SYNC_DUCKDB_THREADS,
    memoryLimit: e.REPORTER_DUCKDB_MEMORY_LIMIT?.text ?? DUCKDB_MEMORY_LIMIT,
    threads: e.REPORTER_DUCKDB_THREADS,
    historyMs: e.REPORTER_HISTORY_DAYS * 86_400_000,
    maxRejectShare: e.REPORTER_MAX_REJECT_SHARE,
  };
}

/** Reads the configuration from `env` (process.env by default). Throws a UsageError naming the setting. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  options: { requireToken?: boolean } = {},
): Config {
  const e = parseEnv(env);
  const p = readProjects(e, options.requireToken !== false);
  const { projects, fileName } = p;
  assertProjectsUnique(projects);
  const dataDir = resolve(e.REPORTER_DATA_DIR);
  const schedule = readScheduleSettings(env, e, p.scheduleFile, fileName);
  return Object.freeze({
    projects: Object.freeze(projects.map((project) => Object.freeze(project))),
    dataDir,
    warehousePath: resolve(dataDir, 'warehouse.duckdb'),
    ...buildSyncSettings(e),
    lockWaitMs: e.REPORTER_LOCK_WAIT_SECONDS * 1000,
    sqlTimeoutMs: e.REPORTER_SQL_TIMEOUT_SECONDS * 1000,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    timeZone: schedule.timeZone,
    jobs: schedule.jobs === null ? null : Object.freeze([...schedule.jobs]),
    schedules: Object.freeze(schedule.schedules),
    retentionMs: schedule.retentionDays * 86_400_000,
    shutdownGraceMs: schedule.shutdownGraceSeconds * 1000,
    dailyReportHtml: e.REPORTER_DAILY_REPORT_HTML ?? false,
    chatApi: buildChatApiConfig(e, p),
    webhooks: Object.freeze({
      key: e.REPORTER_WEBHOOK_KEY,
      host: e.REPORTER_WEBHOOKS_HOST,
      port: e.REPORTER_WEBHOOKS_PORT,
      loadEveryMs: e.REPORTER_WEBHOOKS_LOAD_SECONDS * 1000,
      loadMaxBytes: e.REPORTER_WEBHOOKS_LOAD_MAX_BYTES?.bytes ?? WEBHOOKS_LOAD_MAX_BYTES,
    }),
    lakeDir: e.REPORTER_LAKE_DIR === undefined ? undefined : resolve(e.REPORTER_LAKE_DIR),
    clickhouse:
      e.REPORTER_CLICKHOUSE_URL === undefined
        ? undefined
        : Object.freeze({
            url: e.REPORTER_CLICKHOUSE_URL,
            user: e.REPORTER_CLICKHOUSE_USER,
            password: e.REPORTER_CLICKHOUSE_PASSWORD,
            database: e.REPORTER_CLICKHOUSE_DATABASE,
          }),
    pushgate: buildPushgateConfig(e, p),
    alerts: Object.freeze((e.REPORTER_ALERTS ?? p.fileAlerts ?? []).map((r) => Object.freeze(r))),
    kb: Object.freeze({
      baseUrl: e.REPORTER_KB_BASE_URL,
      key: e.REPORTER_KB_KEY,
      adminKey: e.REPORTER_KB_ADMIN_KEY,
    }),
    embeddings:
      e.REPORTER_EMBEDDINGS_URL === undefined
        ? undefined
        : Object.freeze({ ...e.REPORTER_EMBEDDINGS_URL, model: e.REPORTER_EMBEDDINGS_MODEL }),
    projectsFile: fileName,
  });
}

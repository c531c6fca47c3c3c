// The warehouse as the rest of the tool sees it: one DuckDB file with typed operations.
// Everything that crosses this interface is plain JS (times as epoch ms, counts as numbers, never bigint);
// operations on one Warehouse run one at a time, in call order, each holding the file only while it runs.
import type { Batch, BatchCounts } from './commit-batch.js';
import type { CatalogueBatch, WindowBatch } from './rows.js';

/** What a value bound to a `query` parameter may be: a Date binds as TIMESTAMPTZ, a string[] as VARCHAR[]. */
export type SqlParam = string | number | bigint | boolean | null | Date | readonly string[];
/** Positional (`$1`, `?`) or named (`$name`) parameters. */
export type SqlParams = readonly SqlParam[] | Readonly<Record<string, SqlParam>>;

/** One statement with its parameters. */
export interface SqlStatement {
  sql: string;
  params?: SqlParams;
}

/** A value read back by `query`: integers of any width and decimals as number, timestamps and dates as epoch ms. */
export type PlainValue =
  | null
  | boolean
  | number
  | string
  | Uint8Array
  | PlainValue[]
  | { [key: string]: PlainValue };
export type PlainRow = Record<string, PlainValue>;

/** One chunk of a streamed result: the column names and up to a few thousand rows of plain values. */
export interface StreamedRows {
  columns: string[];
  rows: PlainValue[][];
}

export type RunStatus = 'running' | 'success' | 'partial' | 'failed';

export interface RunStart {
  runId: string;
  /** The project the run works on; null for runs that span projects. */
  project: string | null;
  job: string;
  /** What started it: `cli`, `schedule`, ... */
  trigger: string;
  /**
   * Refuse to start (sync.already_running, exit 75) while another run of this job and project holds a fresh
   * lease: two syncs of one project must not interleave their windows and watermarks.
   */
  exclusive?: boolean;
}

export interface RunFinish {
  status: Exclude<RunStatus, 'running'>;
  error?: string | null;
  durationMs: number;
  /** Every request of the run, catalogues included (the windows add theirs as they commit). */
  requests?: number;
  /** A sync's values of enumerated fields it does not know, per field and value (etl_runs.unknown_values). */
  unknownValues?: Record<string, Record<string, number>>;
  /** A sync's most requests in flight, grown to while the server kept up (etl_runs.concurrency_reached). */
  concurrencyReached?: number;
  /** A sync's answers that were 429, Too Many Requests (etl_runs.throttled). */
  throttled?: number;
}

export interface RunRecord {
  runId: string;
  project: string | null;
  job: string;
  trigger: string | null;
  startedAt: number;
  finishedAt: number | null;
  status: RunStatus;
  windows: number;
  sessions: number;
  messages: number;
  requests: number;
  rejects: number;
  durationMs: number | null;
  error: string | null;
  pid: number | null;
  host: string | null;
  /** The run's Pushgate notification: null none was due, `sent`, or `failed: <reason>` (migration 012). */
  notification: string | null;
  /** A sync's values of enumerated fields it did not know, per field and value; null when none (migration 015). */
  unknownValues: Record<string, Record<string, number>> | null;
  /** A sync's most requests in flight; null for other jobs and older runs (migration 019). */
  concurrencyReached: number | null;
  /** A sync's answers that were 429; null for other jobs and older runs (migration 019). */
  throttled: number | null;
}

export interface ListRunsOptions {
  project?: string;
  job?: string;
  /** Newest first; at most this many. */
  limit: number;
}

/** What one committed window changed (distinct keys after the batch's own duplicates were folded). */
export interface WindowCommitSummary {
  /** Sessions and messages written (distinct keys), new or read again. */
  sessions: number;
  messages: number;
  /** Of those, the ones whose key the warehouse did not hold before this window (the rest were read again). */
  newSessions: number;
  newMessages: number;
  rejects: number;
  /** Status history rows added: (message, status) pairs seen for the first time. */
  newStatuses: number;
  durationMs: number;
}

export interface Warehouse {
  /** The DuckDB file, as given to openWarehouse. */
  readonly path: string;
  /** `read`: opened READ_ONLY, shared with other readers, write operations fail; `write`: read-write. */
  readonly access: 'read' | 'write';
  /**
   * Commits one window atomically: rows (delete-then-insert by key), labels, sessionData, clients,
   * rejects, status history, the watermark (when set) and the run counters. Nothing on failure.
   */
  commitWindow(batch: WindowBatch): Promise<WindowCommitSummary>;
  /**
   * Commits a source's batch in one transaction (commit-batch.ts): rows per TableSpec (replaced by key or
   * appended), state and run counters; nothing on failure. The rows changed by table and by statement name.
   */
  commitBatch(batch: Batch): Promise<BatchCounts>;
  /** Replaces the project's label catalogues and experiments in one transaction. */
  commitCatalogues(batch: CatalogueBatch): Promise<void>;
  /** Records a run as `running` with a fresh heartbeat (and closes the runs, of any host, whose heartbeat is stale). */
  startRun(run: RunStart): Promise<void>;
  /** Finishes a run (and, like startRun, closes the runs whose lease is stale). */
  finishRun(runId: string, result: RunFinish): Promise<void>;
  /** The project's watermark (epoch ms), or undefined before the first committed window. */
  getWatermark(project: string): Promise<number | undefined>;
  listRuns(options: ListRunsOptions): Promise<RunRecord[]>;
  countRejects(runId: string): Promise<number>;
  /**
   * question_id -> latest stored status (null when the channel has none) of the messages of these sessions;
   * with `between` (epoch ms, inclusive), only their messages of that time range.
   */
  latestStatuses(
    project: string,
    sessionIds: readonly string[],
    between?: { from: number; to: number },
  ): Promise<Map<string, string | null>>;
  /**
   * Runs write statements in order in one transaction: all of them or, on any error, none. The rows each
   * changed. For sources whose tables have no typed operation of their own (the Chat API's).
   */
  execute(statements: readonly SqlStatement[]): Promise<number[]>;
  /** Runs one SQL statement with bound parameters; rows as plain objects (see PlainValue). */
  query(sql: string, params?: SqlParams): Promise<PlainRow[]>;
  /**
   * Runs one SQL statement and yields its rows chunk by chunk (values as in `query`), for exports too large
   * to hold. The warehouse runs nothing else until the iteration ends (finished, broken off, or thrown).
   */
  streamRows(sql: string, params?: SqlParams): AsyncIterable<StreamedRows>;
  /**
   * Writes the rows of one SELECT to a Parquet file (zstd) at `path`, by this process: a reader served by the
   * writer gets the file's bytes from it (written to a private temp file there), never asks it to write `path`.
   */
  writeParquet(select: string, path: string): Promise<void>;
  /**
   * Keeps the file open from the first operation of `work` to its end, so its queries see one snapshot
   * (a report's figures); outside hold() each operation opens and releases the file.
   */
  hold<T>(work: () => Promise<T>): Promise<T>;
  /** DuckDB's memory_limit from now on (undefined: the one the warehouse was opened with): the sync lowers it. */
  setMemoryLimit(limit: string | undefined): Promise<void>;
  /** DuckDB's threads from now on (undefined: the ones the warehouse was opened with): the sync lowers them. */
  setThreads(count: number | undefined): Promise<void>;
  /** Waits for queued operations, then releases the file so another process can open it. Idempotent. */
  close(): Promise<void>;
}

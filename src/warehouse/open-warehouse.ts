// Opens the warehouse: a Warehouse whose operations run one at a time on one DuckDB file. A reader holds the
// file (READ_ONLY, shared with other readers) only while an operation or hold() runs; a writer keeps it
// between its operations until another process asks for it (turn-marker.ts) or it has been idle for a
// second, then checkpoints off the event loop and closes it. Migrations run (or, read-only, are checked) at
// the first open.
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import type { Logger } from '../log.js';
import { commitCatalogues } from './commit-catalogues.js';
import { commitWindow } from './commit-window.js';
import { corruptWarehouseError, isCorruptionError } from './corrupt-warehouse-error.js';
import { countRejects, finishRun, listRuns, startRun } from './etl-runs.js';
import { getWatermark } from './get-watermark.js';
import { DUCKDB_MEMORY_LIMIT, type OpenDatabaseFile, openDatabaseFile } from './open-database-file.js';
import { queryRows } from './query-rows.js';
import { readLatestStatuses } from './read-latest-statuses.js';
import { checkMigrations, runMigrations } from './run-migrations.js';
import { createSerialQueue } from './serial-queue.js';
import { streamRows } from './stream-rows.js';
import { askForTurn, giveTurn, isSomeoneWaiting, turnMarkerOf, withdrawTurnRequest } from './turn-marker.js';
import type { StreamedRows, Warehouse } from './warehouse.js';

/** How long a writer waits for the file (REPORTER_LOCK_WAIT_SECONDS overrides it in the CLI). */
export const DEFAULT_LOCK_WAIT_MS = 30_000;
/** How long a reader waits for a writer's commit at most (a window commit takes well under a second). */
export const DEFAULT_READ_LOCK_WAIT_MS = 10_000;

/** `read` opens the file READ_ONLY (shared with other readers, write operations fail); `write` read-write. */
export type WarehouseAccess = 'read' | 'write';

export interface OpenWarehouseOptions {
  /** The DuckDB file; its directory is created when missing. `:memory:` for a throwaway warehouse. */
  path: string;
  /** Default `write`. A `read` warehouse needs an existing, migrated file and never writes to it. */
  access?: WarehouseAccess;
  /** How long to wait for another process to release the file before failing (default 30 s; read 10 s). */
  lockWaitMs?: number;
  /** DuckDB's memory_limit for the opens of this warehouse (setMemoryLimit changes it later). */
  memoryLimit?: string;
  log?: Logger;
  /** The clock for run times and catalogue sync times (default Date.now). */
  now?: () => number;
  /** After how long without a heartbeat a running run counts as abandoned (default LEASE.staleMs). */
  leaseStaleMs?: number;
}

export async function openWarehouse(options: OpenWarehouseOptions): Promise<Warehouse> {
  const now = options.now ?? Date.now;
  const log = options.log;
  const access = options.access ?? 'write';
  const inMemory = options.path === ':memory:';
  const lockWaitMs =
    options.lockWaitMs ?? (access === 'read' ? DEFAULT_READ_LOCK_WAIT_MS : DEFAULT_LOCK_WAIT_MS);
  let memoryLimit = options.memoryLimit;
  if (!inMemory) {
    if (access === 'write') assertWarehouseWritable(options.path);
    else if (!existsSync(options.path))
      throw new EtlError(
        'warehouse.missing',
        `REPORTER_DATA_DIR: there is no warehouse at ${options.path} yet; run reporter-etl sync first`,
        { kind: 'usage' },
      );
  }

  let file: OpenDatabaseFile | undefined;
  /** Migrated (write) or found up to date (read) at the first open: the later opens skip the check. */
  let upToDate = false;
  /** Operations queued or running, and hold() calls running: the file is closed when both are 0. */
  let pending = 0;
  let holds = 0;
  /** A write file being checkpointed and closed: the next open waits for it. */
  let closing: Promise<void> | undefined;
  const marker = turnMarkerOf(options.path);
  /** While a writer holds the file between operations: checks for a waiter and for the idle limit. */
  let idleWatch: NodeJS.Timeout | undefined;
  let idleSince = 0;
  /** When the writer last let a waiting process in: it does so at most every TURN_EVERY_MS. */
  let lastTurnAt = Number.NEGATIVE_INFINITY;
  const isTurnDue = (): boolean => Date.now() - lastTurnAt >= TURN_EVERY_MS && isSomeoneWaiting(marker);
  const stopIdleWatch = (): void => {
    clearInterval(idleWatch);
    idleWatch = undefined;
  };
  /** Lets go of the file: a reader's at once, a writer's after a CHECKPOINT off the event loop. */
  const startClosing = (open: OpenDatabaseFile): void => {
    file = undefined;
    if (access === 'read' || inMemory) {
      open.release();
      return;
    }
    const released = checkpointAndRelease(open, log);
    closing = released;
    void released.then(() => {
      if (closing === released) closing = undefined;
    });
  };
  const connect = async (): Promise<DuckDBConnection> => {
    if (access === 'write' && !inMemory && isTurnDue()) {
      // another process waits: let it in between two operations instead of chaining them on one open file
      if (file && holds === 0) startClosing(file);
      if (closing) await closing;
      await giveTurn(marker);
      lastTurnAt = Date.now();
    }
    if (file) return file.connection;
    if (closing) await closing;
    let waited = false;
    const opened = await openDatabaseFile({
      path: options.path,
      lockWaitMs,
      readOnly: access === 'read',
      memoryLimit,
      log,
      onLockWait: () => {
        waited = true;
        askForTurn(marker);
      },
    }).finally(() => {
      if (waited) withdrawTurnRequest(marker);
    });
    try {
      if (!upToDate) {
        if (access === 'write') await runMigrations(opened.connection, { now, log });
        else await checkMigrations(opened.connection, options.path);
        upToDate = true;
      }
    } catch (error) {
      opened.release();
      throw isCorruptionError(error) ? corruptWarehouseError(options.path, error) : error;
    }
    file = opened;
    return opened.connection;
  };
  const releaseWhenIdle = (): void => {
    if (pending > 0 || holds > 0 || inMemory || !file) return;
    if (access === 'read') {
      startClosing(file);
      return;
    }
    // a writer keeps the file between operations (each open and close costs a cold start and a checkpoint)
    // until another process asks for it or nothing has run for WRITER_IDLE_RELEASE_MS
    idleSince = Date.now();
    if (idleWatch) return;
    idleWatch = setInterval(() => {
      if (pending > 0 || holds > 0 || !file) return stopIdleWatch();
      if (isTurnDue() || Date.now() - idleSince >= WRITER_IDLE_RELEASE_MS) {
        stopIdleWatch();
        startClosing(file);
      }
    }, IDLE_WATCH_EVERY_MS);
    idleWatch.unref();
  };
  // the first open happens now, so that a missing, locked-out or outdated file fails the command at start;
  // it stays open for the operations the caller queues at once (useWarehouseAt: one open per step)
  pending++;
  try {
    await connect();
  } finally {
    pending--;
  }
  setImmediate(releaseWhenIdle);
  log?.debug({ path: options.path, access }, 'warehouse opened');

  const queue = createSerialQueue();
  let closed = false;
  const enqueue = <T>(operation: string, work: (connection: DuckDBConnection) => Promise<T>): Promise<T> => {
    if (closed) {
      return Promise.reject(
        new EtlError('warehouse.closed', `The warehouse ${options.path} is closed (cannot ${operation})`),
      );
    }
    pending++;
    return queue.run(async () => {
      try {
        return await work(await connect());
      } finally {
        pending--;
        releaseWhenIdle();
      }
    });
  };
  const wrapQuery = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (cause) {
      if (cause instanceof EtlError) throw cause;
      if (isCorruptionError(cause)) throw corruptWarehouseError(options.path, cause);
      throw new EtlError('warehouse.query_failed', `Warehouse query failed: ${(cause as Error).message}`, {
        cause,
      });
    }
  };

  return {
    path: options.path,
    access,
    commitWindow: (batch) => enqueue('commit a window', (c) => commitWindow(c, batch)),
    commitCatalogues: (batch) => enqueue('commit catalogues', (c) => commitCatalogues(c, batch, now())),
    startRun: (run) =>
      enqueue('start a run', (c) => wrapQuery(() => startRun(c, run, now(), options.leaseStaleMs))),
    finishRun: (runId, result) =>
      enqueue('finish a run', (c) =>
        wrapQuery(() => finishRun(c, runId, result, now(), options.leaseStaleMs)),
      ),
    getWatermark: (project) => enqueue('read a watermark', (c) => wrapQuery(() => getWatermark(c, project))),
    listRuns: (listOptions) => enqueue('list runs', (c) => wrapQuery(() => listRuns(c, listOptions))),
    countRejects: (runId) => enqueue('count rejects', (c) => wrapQuery(() => countRejects(c, runId))),
    latestStatuses: (project, sessionIds, between) =>
      enqueue('read statuses', (c) => wrapQuery(() => readLatestStatuses(c, project, sessionIds, between))),
    query: (sql, params) => enqueue('query', (c) => wrapQuery(() => queryRows(c, sql, params))),
    async *streamRows(sql, params) {
      // holds the queue (and the file) from the first chunk to the end of the iteration: one statement
      let release = () => {};
      let started = (_connection: DuckDBConnection) => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const turn = new Promise<DuckDBConnection>((resolve) => (started = resolve));
      const slot = enqueue('stream rows', (connection) => {
        started(connection);
        return held;
      });
      let rows: AsyncGenerator<StreamedRows> | undefined;
      try {
        const connection = await Promise.race([turn, slot.then(() => undefined)]);
        if (!connection) return;
        const chunks = streamRows(connection, sql, params);
        rows = chunks;
        for (;;) {
          const next = await wrapQuery(() => chunks.next());
          if (next.done) return;
          yield next.value;
        }
      } finally {
        await rows?.return(undefined).catch(() => undefined);
        release();
        await slot.catch(() => undefined);
      }
    },
    async hold(work) {
      // keeps the file open across the operations of `work` (one snapshot for a report's queries)
      holds++;
      try {
        return await work();
      } finally {
        holds--;
        releaseWhenIdle();
      }
    },
    async setMemoryLimit(limit) {
      // the opens that follow use it; a file open now (in memory, or inside hold()) gets it at once
      memoryLimit = limit ?? options.memoryLimit;
      if (!file) return;
      const value = memoryLimit ?? DUCKDB_MEMORY_LIMIT;
      await enqueue('set the memory limit', async (c) => {
        await c.run(`SET memory_limit = '${value.replaceAll("'", "''")}'`);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      holds = 0;
      stopIdleWatch();
      await queue.drain();
      if (file) startClosing(file);
      await closing;
      log?.debug({ path: options.path }, 'warehouse closed');
    },
  };
}

/** A writer between operations lets go of the file after this long without one (schedule between runs). */
const WRITER_IDLE_RELEASE_MS = 1_000;
/**
 * A writer lets a waiting process in at most this often: each turn costs it a checkpoint and a cold reopen
 * (~0.5 CPU-s at 100k messages), so readers in a tight loop would otherwise take turns back to back.
 */
const TURN_EVERY_MS = 3_000;
/** How often a writer between operations looks for a waiting process. */
const IDLE_WATCH_EVERY_MS = 50;

/**
 * Closing a file with committed changes checkpoints them into it, and DuckDB's close does that on the calling
 * thread: at 30 windows of a month's sync that blocked the event loop (and the API reads) for ~5 s. The
 * CHECKPOINT statement runs on DuckDB's own threads, so the close that follows has nothing left to do.
 */
async function checkpointAndRelease(file: OpenDatabaseFile, log: Logger | undefined): Promise<void> {
  try {
    await file.connection.run('CHECKPOINT');
  } catch (error) {
    // the close checkpoints (or keeps the write-ahead log for the next open) as it always did
    log?.debug({ err: error }, 'checkpoint before closing the warehouse failed');
  }
  file.release();
}

/**
 * Throws `warehouse.read_only` (exit 2) when the process cannot write the warehouse file or its directory
 * (a read-only file system, a file or directory without write permission): a write command fails at start.
 */
export function assertWarehouseWritable(path: string): void {
  if (path === ':memory:') return;
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR')
      throw new EtlError(
        'warehouse.dir_not_folder',
        `The folder of the warehouse file ${path} is a file (or lies under one), not a folder: ` +
          'set REPORTER_DATA_DIR to a folder',
        { kind: 'usage', cause },
      );
    if (!isReadOnlyError(cause))
      throw new EtlError(
        'warehouse.open_failed',
        `Could not create the directory of the warehouse file ${path}: ${(cause as Error).message}`,
        { cause },
      );
    throw readOnlyError(path, cause);
  }
  for (const target of existsSync(path) ? [path, dir] : [dir]) {
    try {
      accessSync(target, constants.W_OK);
    } catch (cause) {
      if (isReadOnlyError(cause)) throw readOnlyError(path, cause);
    }
  }
}

function isReadOnlyError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EROFS' || code === 'EACCES' || code === 'EPERM';
}

function readOnlyError(path: string, cause: unknown): EtlError {
  return new EtlError(
    'warehouse.read_only',
    `REPORTER_DATA_DIR: the warehouse ${path} cannot be written (${(cause as Error).message}). ` +
      'Read commands (stats, report, runs, ...) work on it; commands that write (sync, run, schedule, ' +
      'label --apply, platform-report create) need a writable data directory.',
    { kind: 'usage', cause },
  );
}

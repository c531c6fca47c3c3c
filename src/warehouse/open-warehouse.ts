// Opens the warehouse: a Warehouse whose operations run one at a time on one DuckDB file. A writer keeps the
// file between its operations, serving other processes' reads meanwhile (read-service.ts), until another
// writer asks for it (turn-marker.ts) or it has been idle for a second, then checkpoints off the event loop
// and closes it. A reader sends its reads to that writer when there is one; otherwise it opens the file
// itself (READ_ONLY, shared with other readers) only while an operation or hold() runs. Migrations run (or,
// read-only, are checked) at the first open.
import { accessSync, constants, existsSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import type { Logger } from '../log.js';
import { makeDirectory } from '../make-directory.js';
import { createServedSqlCheck } from './check-served-sql.js';
import { commitCatalogues } from './commit-catalogues.js';
import { commitWindow, isOutOfMemory } from './commit-window.js';
import { corruptWarehouseError, isCorruptionError } from './corrupt-warehouse-error.js';
import { finishRun, startRun } from './etl-runs.js';
import {
  DUCKDB_MEMORY_LIMIT,
  DUCKDB_THREADS,
  type OpenDatabaseFile,
  openDatabaseFile,
} from './open-database-file.js';
import { runStatement } from './query-rows.js';
import { copyToParquetSql, type ReadRequest, runReadRequest } from './read-request.js';
import { type ReadService, serveReads } from './read-service.js';
import { connectToReadService, type ReadServiceClient, ReadServiceGone } from './read-service-client.js';
import { runInTransaction } from './run-in-transaction.js';
import { checkMigrations, runMigrations } from './run-migrations.js';
import { createSerialQueue } from './serial-queue.js';
import { streamRows } from './stream-rows.js';
import { askForTurn, giveTurn, isSomeoneWaiting, turnMarkerOf, withdrawTurnRequest } from './turn-marker.js';
import type { ListRunsOptions, PlainRow, RunRecord, StreamedRows, Warehouse } from './warehouse.js';

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
  /** DuckDB's threads for the opens of this warehouse (setThreads changes it later). */
  threads?: number;
  log?: Logger;
  /** The clock for run times and catalogue sync times (default Date.now). */
  now?: () => number;
  /** After how long without a heartbeat a running run counts as abandoned (default LEASE.staleMs). */
  leaseStaleMs?: number;
  /** Where the per-user folder of the read socket is made (default /tmp: read-service-socket.ts). */
  socketRoot?: string;
}

export async function openWarehouse(options: OpenWarehouseOptions): Promise<Warehouse> {
  const now = options.now ?? Date.now;
  const log = options.log;
  const access = options.access ?? 'write';
  const inMemory = options.path === ':memory:';
  const lockWaitMs =
    options.lockWaitMs ?? (access === 'read' ? DEFAULT_READ_LOCK_WAIT_MS : DEFAULT_LOCK_WAIT_MS);
  let memoryLimit = options.memoryLimit;
  let threads = options.threads;
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
  /** A writer's service of other processes' reads, while it holds the file. */
  let service: ReadService | undefined;
  /** A reader's connection to the writer's read service, and whether it holds a snapshot there (hold()). */
  let remote: ReadServiceClient | undefined;
  let remoteHolding = false;
  /** A served read ran out of the writer's memory: this reader asks for the file instead from now on. */
  let readTheFile = false;
  /** Migrated (write) or found up to date (read) at the first open: the later opens skip the check. */
  let upToDate = false;
  /** Operations queued or running, and hold() calls running: the file is closed when both are 0. */
  let pending = 0;
  let holds = 0;
  /** A write file being checkpointed and closed: the next open waits for it. */
  let closing: Promise<void> | undefined;
  const marker = turnMarkerOf(options.path);
  /** A writer's check of served SQL, kept across reopens: its verdicts and DuckDB's function list (~0.1 s). */
  const checkServedSql = createServedSqlCheck();
  /** A socket this reader does not trust is named once in the log; the reader reads the file itself. */
  let warnedOfSocket = false;
  const findReadService = () =>
    connectToReadService(options.path, {
      socketRoot: options.socketRoot,
      onRefused: (socketPath, reason) => {
        if (warnedOfSocket) return;
        warnedOfSocket = true;
        log?.warn(
          { path: options.path, socketPath },
          `ignoring the read socket ${socketPath}: ${reason}; reading the warehouse file itself`,
        );
      },
    });
  /** While a writer holds the file between operations: checks for a waiter and for the idle limit. */
  let idleWatch: NodeJS.Timeout | undefined;
  let idleSince = 0;
  /** When the writer last let a waiting process in: it does so at most every TURN_EVERY_MS. */
  let lastTurnAt = Number.NEGATIVE_INFINITY;
  /** A process waits for the file, and no reader is being served (the turn would wait for it). */
  const isTurnDue = (): boolean =>
    Date.now() - lastTurnAt >= TURN_EVERY_MS && !service?.isBusy() && isSomeoneWaiting(marker);
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
    const served = service;
    service = undefined;
    const released = (async () => {
      await served?.stop(lockWaitMs);
      await checkpointAndRelease(open, log);
    })();
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
      threads,
      log,
      onLockWait: async (waitedMs) => {
        if (access === 'read' && !readTheFile) {
          // the writer holding the file serves reads: ask it; ask for the file only if none answers
          const found = await findReadService();
          if (found) throw new FoundReadService(found, waitedMs);
          if (waitedMs < READER_ASKS_FOR_TURN_AFTER_MS) return;
        }
        waited = true;
        askForTurn(marker, access === 'read' ? 'reader' : 'writer');
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
    if (access === 'write' && !inMemory)
      service = await serveReads({
        instance: opened.instance,
        warehousePath: options.path,
        log,
        socketRoot: options.socketRoot,
        checkSql: checkServedSql,
      });
    return opened.connection;
  };
  /** Where a reader's next operation runs: the file it has open, the writer's read service, or the file. */
  const connectReader = async (): Promise<ReadTarget> => {
    if (file) return { local: file.connection };
    if (remote?.closed) remote = undefined;
    if (!readTheFile) remote ??= await findReadService();
    if (!remote) {
      try {
        return { local: await connect() };
      } catch (error) {
        if (!(error instanceof FoundReadService)) throw error;
        remote = error.client;
        log?.info(
          { path: options.path, waitedMs: Math.round(error.waitedMs) },
          'reading through the writer after waiting for the file',
        );
      }
    }
    if (holds > 0 && !remoteHolding) {
      await remote.begin();
      remoteHolding = true;
    }
    return { remote };
  };
  /**
   * Runs a read operation where connectReader says; a writer that stops serving midway is asked no more.
   * A `parquet` read writes its file at `parquetPath` (here directly; through the writer, from its bytes).
   */
  const runRead = async (request: ReadRequest, parquetPath?: string): Promise<unknown> => {
    for (let attempt = 1; ; attempt++) {
      try {
        const target = access === 'write' ? { local: await connect() } : await connectReader();
        if ('local' in target && request.op === 'parquet' && parquetPath !== undefined)
          return await runStatement(target.local, copyToParquetSql(request.sql, parquetPath));
        if ('local' in target) return await runReadRequest(target.local, request);
        const value = await target.remote.read(request);
        if (parquetPath !== undefined) writeFileSync(parquetPath, value as Uint8Array);
        return value;
      } catch (error) {
        if (!canReadElsewhere(error) || attempt >= MAX_READ_ATTEMPTS) throw asQueryError(error);
        leaveReadService(error);
      }
    }
  };
  /** A served read that failed because of where it ran (the writer left, or its memory is too small). */
  const canReadElsewhere = (error: unknown): boolean =>
    error instanceof ReadServiceGone || (remote !== undefined && isOutOfMemory(error));
  const leaveReadService = (error: unknown): void => {
    if (!(error instanceof ReadServiceGone)) {
      readTheFile = true;
      log?.warn(
        { path: options.path, err: error },
        'the writer has too little memory for this query (its memory_limit): reading the file once it lets go',
      );
    }
    remote?.close();
    remote = undefined;
    remoteHolding = false;
  };
  const releaseWhenIdle = (): void => {
    if (pending > 0 || holds > 0 || inMemory) return;
    if (remoteHolding && remote) {
      // the end of a hold() served by the writer: its snapshot is let go (an operation queued next waits)
      remoteHolding = false;
      const client = remote;
      pending++;
      void queue
        .run(() => client.end().catch(() => undefined))
        .finally(() => {
          pending--;
        });
    }
    if (!file) return;
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
      if (service?.isBusy()) idleSince = Date.now();
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
    if (access === 'read') await connectReader();
    else await connect();
  } finally {
    pending--;
  }
  setImmediate(releaseWhenIdle);
  log?.debug({ path: options.path, access }, 'warehouse opened');

  const queue = createSerialQueue();
  let closed = false;
  const asQueryError = (cause: unknown): Error => {
    if (cause instanceof EtlError) return cause;
    if (cause instanceof ReadServiceGone)
      return new EtlError(
        'warehouse.locked',
        `The process that was writing the warehouse ${options.path} and serving this read let go of it midway ` +
          '(it finished, was stopped, or a read of its ran too long); run the command again: it reads the file itself.',
        { kind: 'transient', cause },
      );
    if (isCorruptionError(cause)) return corruptWarehouseError(options.path, cause);
    return new EtlError('warehouse.query_failed', `Warehouse query failed: ${(cause as Error).message}`, {
      cause,
    });
  };
  const closedError = (operation: string): EtlError =>
    new EtlError('warehouse.closed', `The warehouse ${options.path} is closed (cannot ${operation})`);
  const enqueue = <T>(operation: string, work: (connection: DuckDBConnection) => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(closedError(operation));
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
      throw asQueryError(cause);
    }
  };
  const read = <T>(operation: string, request: ReadRequest, parquetPath?: string): Promise<T> => {
    if (closed) return Promise.reject(closedError(operation));
    pending++;
    return queue.run(async () => {
      try {
        return (await runRead(request, parquetPath)) as T;
      } finally {
        pending--;
        releaseWhenIdle();
      }
    });
  };

  return {
    path: options.path,
    access,
    commitWindow: (batch) => enqueue('commit a window', (c) => commitWindow(c, batch)),
    commitCatalogues: (batch) => enqueue('commit catalogues', (c) => commitCatalogues(c, batch, now())),
    execute: (statements) =>
      enqueue('write', (c) =>
        runInTransaction(
          c,
          async () => {
            const changed: number[] = [];
            for (const statement of statements)
              changed.push(await runStatement(c, statement.sql, statement.params));
            return changed;
          },
          asQueryError,
        ),
      ),
    startRun: (run) =>
      enqueue('start a run', (c) => wrapQuery(() => startRun(c, run, now(), options.leaseStaleMs))),
    finishRun: (runId, result) =>
      enqueue('finish a run', (c) =>
        wrapQuery(() => finishRun(c, runId, result, now(), options.leaseStaleMs)),
      ),
    getWatermark: (project) => read<number | undefined>('read a watermark', { op: 'getWatermark', project }),
    listRuns: (listOptions: ListRunsOptions) =>
      read<RunRecord[]>('list runs', { op: 'listRuns', options: listOptions }),
    countRejects: (runId) => read<number>('count rejects', { op: 'countRejects', runId }),
    latestStatuses: (project, sessionIds, between) =>
      read<Map<string, string | null>>('read statuses', {
        op: 'latestStatuses',
        project,
        sessionIds,
        between,
      }),
    query: (sql, params) => read<PlainRow[]>('query', { op: 'query', sql, params }),
    async writeParquet(select, path) {
      await read('write a Parquet file', { op: 'parquet', sql: select }, path);
    },
    async *streamRows(sql, params) {
      // holds the queue (and the file, or the writer's connection) from the first chunk to the end of the
      // iteration: one statement
      if (closed) throw closedError('stream rows');
      let release = () => {};
      let started = (_unused: true) => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const turn = new Promise<true>((resolve) => (started = resolve));
      pending++;
      const slot = queue.run(async () => {
        try {
          started(true);
          await held;
        } finally {
          pending--;
          releaseWhenIdle();
        }
      });
      let rows: AsyncGenerator<StreamedRows> | undefined;
      try {
        if (!(await Promise.race([turn, slot.then(() => false)]))) return;
        for (let attempt = 1; ; attempt++) {
          let first: IteratorResult<StreamedRows>;
          try {
            const target = access === 'write' ? { local: await connect() } : await connectReader();
            const chunks =
              'local' in target ? streamRows(target.local, sql, params) : target.remote.stream(sql, params);
            rows = chunks;
            first = await chunks.next();
          } catch (error) {
            // a writer that stopped serving before the first chunk: read again where connectReader says
            if (!canReadElsewhere(error) || attempt >= MAX_READ_ATTEMPTS) throw asQueryError(error);
            leaveReadService(error);
            continue;
          }
          if (first.done) return;
          yield first.value;
          break;
        }
        for (;;) {
          const next = await wrapQuery(() => (rows as AsyncGenerator<StreamedRows>).next());
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
    async setThreads(count) {
      // as setMemoryLimit: the opens that follow use it, a file open now gets it at once
      threads = count ?? options.threads;
      if (!file) return;
      const value = threads ?? DUCKDB_THREADS;
      await enqueue('set the threads', async (c) => {
        await c.run(`SET threads = ${Math.trunc(value)}`);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      holds = 0;
      stopIdleWatch();
      await queue.drain();
      if (file) startClosing(file);
      remote?.close();
      remote = undefined;
      await closing;
      log?.debug({ path: options.path }, 'warehouse closed');
    },
  };
}

/** How often a reader tries the writer's read service again before it fails (each failure: the writer left). */
const MAX_READ_ATTEMPTS = 5;
/**
 * A reader that finds the file locked and no read service (a writer opening the file or letting go of it, or
 * one that cannot serve this user) asks for the file after this long.
 */
const READER_ASKS_FOR_TURN_AFTER_MS = 1_000;

/** Where a reader's operation runs: a connection to the file it opened, or the writer's read service. */
type ReadTarget = { local: DuckDBConnection } | { remote: ReadServiceClient };

/** Thrown out of a reader's wait for the file lock: the writer holding it serves reads after all. */
class FoundReadService extends Error {
  constructor(
    readonly client: ReadServiceClient,
    readonly waitedMs: number,
  ) {
    super('found the read service of the writer');
  }
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
    makeDirectory(dir);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR')
      throw new EtlError(
        'warehouse.dir_not_folder',
        `The folder of the warehouse file ${path} is a file (or lies under one), not a folder: ` +
          'set REPORTER_DATA_DIR to a folder',
        { kind: 'usage', cause },
      );
    if (code === 'ENOENT')
      throw new EtlError(
        'warehouse.dir_not_folder',
        `The folder of the warehouse file ${path} cannot be made: a folder above it exists but cannot hold ` +
          'folders (ENOENT): set REPORTER_DATA_DIR to a folder on an ordinary file system',
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

// The warehouse core of one process, composed of its parts: the file holder (file-holder.ts), the writer's
// policy (writer-policy.ts: idle release, turns), the readers' router (read-router.ts: served or from the
// file) and the serial queue. It counts the operations and hold()s running, and lets go of the file when
// none does: a reader's at once, a writer's when its policy says. Migrations run (or are checked) at the
// first open; a writer serves other processes' reads while it holds the file (read-service.ts).
import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import type { Logger } from '../log.js';
import { createServedSqlCheck } from './check-served-sql.js';
import { corruptWarehouseError, isCorruptionError } from './corrupt-warehouse-error.js';
import { createFileHolder, type FileHolder } from './file-holder.js';
import { type OpenDatabaseFile, openDatabaseFile } from './open-database-file.js';
import { createReadRouter, type ReadRouter } from './read-router.js';
import { type ReadService, serveReads } from './read-service.js';
import { checkMigrations, runMigrations } from './run-migrations.js';
import { createSerialQueue } from './serial-queue.js';
import { askForTurn, giveTurn, isSomeoneWaiting, turnMarkerOf, withdrawTurnRequest } from './turn-marker.js';
import { createWriterPolicy, type WriterPolicy } from './writer-policy.js';

export interface WarehouseCoreSettings {
  path: string;
  access: 'read' | 'write';
  lockWaitMs: number;
  /** DuckDB's memory_limit and threads for the next opens (setMemoryLimit / setThreads change them). */
  limits: { memoryLimit?: string | undefined; threads?: number | undefined };
  log?: Logger | undefined;
  now: () => number;
  socketRoot?: string | undefined;
}

export interface WarehouseCore {
  readonly holder: FileHolder;
  /** The limits of the next opens (settings.limits itself: setMemoryLimit / setThreads change it). */
  readonly limits: WarehouseCoreSettings['limits'];
  readonly router: ReadRouter;
  /** The open file's connection, opening it (or giving a due turn first, for a writer). */
  connect(): Promise<DuckDBConnection>;
  /** Queues `work` as one operation; rejects with `warehouse.closed` once close() was called. */
  run<T>(operation: string, work: () => Promise<T>): Promise<T>;
  /** Keeps the file (or the served snapshot) across the operations of `work`. */
  hold<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export async function createWarehouseCore(settings: WarehouseCoreSettings): Promise<WarehouseCore> {
  const { path, access, log } = settings;
  const inMemory = path === ':memory:';
  const marker = turnMarkerOf(path);
  /** A writer of a file: it serves reads, checkpoints before closing, and follows the writer's policy. */
  const serving = access === 'write' && !inMemory;
  /** Operations queued or running, and hold() calls running: the file is let go when both are 0. */
  let pending = 0;
  let holds = 0;
  let closed = false;
  const queue = createSerialQueue();
  const { holder, isServing } = createWarehouseHolder(
    settings,
    serving,
    (waitedMs) => router.lookWhileWaiting(waitedMs),
    // letting go for a turn that served reads held back long enough: they are cut at once
    () => (policy?.areReadsOverdue() ? 0 : settings.lockWaitMs),
  );
  const policy: WriterPolicy | undefined = serving
    ? createWriterPolicy({
        isSomeoneWaiting: () => isSomeoneWaiting(marker),
        isServing,
        stayOut: () => giveTurn(marker),
      })
    : undefined;
  const connect = async (): Promise<DuckDBConnection> => {
    await policy?.giveTurnIfDue(async () => {
      if (holder.state === 'open' && holds === 0) holder.startClosing();
      await holder.whenClosed();
    });
    return holder.file?.connection ?? (await holder.open()).connection;
  };
  const router = createReadRouter({
    path,
    served: access === 'read',
    openConnection: () => holder.file?.connection,
    connect,
    isHolding: () => holds > 0,
    socketRoot: settings.socketRoot,
    log,
  });
  const releaseWhenIdle = (): void => {
    if (pending > 0 || holds > 0 || inMemory) return;
    const snapshot = router.takeHeldSnapshot();
    if (snapshot) {
      // the end of a hold() served by the writer: its snapshot is let go (an operation queued next waits)
      pending++;
      void queue
        .run(() => snapshot.end().catch(() => undefined))
        .finally(() => {
          pending--;
        });
    }
    if (holder.state !== 'open') return;
    if (access === 'read') holder.startClosing();
    else
      policy?.watchIdle(
        () => pending === 0 && holds === 0 && holder.state === 'open',
        () => holder.startClosing(),
      );
  };
  // the first open happens now, so that a missing, locked-out or outdated file fails the command at start;
  // it stays open for the operations the caller queues at once (useWarehouseAt: one open per step)
  pending++;
  try {
    await router.target();
  } finally {
    pending--;
  }
  setImmediate(releaseWhenIdle);
  return {
    holder,
    limits: settings.limits,
    router,
    connect,
    run(operation, work) {
      if (closed) return Promise.reject(closedError(path, operation));
      pending++;
      return queue.run(async () => {
        try {
          return await work();
        } finally {
          pending--;
          releaseWhenIdle();
        }
      });
    },
    async hold(work) {
      holds++;
      try {
        return await work();
      } finally {
        holds--;
        releaseWhenIdle();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      holds = 0;
      policy?.stop();
      await queue.drain();
      if (holder.state === 'open') holder.startClosing();
      router.close();
      await holder.whenClosed();
    },
  };
}

function closedError(path: string, operation: string): EtlError {
  return new EtlError('warehouse.closed', `The warehouse ${path} is closed (cannot ${operation})`);
}

/**
 * The holder of the warehouse file. A writer's (`serving`) serves other processes' reads while it holds the
 * file, stops serving as it lets go (waiting for the reads at most `servedReadsWaitMs()`), and checkpoints
 * before the close.
 */
function createWarehouseHolder(
  settings: WarehouseCoreSettings,
  serving: boolean,
  lookWhileWaiting: (waitedMs: number) => Promise<boolean>,
  servedReadsWaitMs: () => number,
): { holder: FileHolder; isServing: () => boolean } {
  let service: ReadService | undefined;
  /** A writer's check of served SQL, kept across reopens: its verdicts and DuckDB's function list (~0.1 s). */
  const checkServedSql = createServedSqlCheck();
  const holder = createFileHolder({
    openFile: createFileOpener(settings, lookWhileWaiting),
    onOpen: serving
      ? async (opened) => {
          service = await serveReads({
            instance: opened.instance,
            warehousePath: settings.path,
            log: settings.log,
            socketRoot: settings.socketRoot,
            checkSql: checkServedSql,
          });
        }
      : undefined,
    checkpoint: serving,
    beforeRelease: async () => {
      const served = service;
      service = undefined;
      await served?.stop(servedReadsWaitMs());
    },
    log: settings.log,
  });
  return { holder, isServing: () => service?.isBusy() ?? false };
}

/**
 * Opens the file for the holder: waits for its lock (a reader looks for the writer's read service meanwhile,
 * and a waiter touches the turn marker), then migrates it (write) or checks it (read) at the first open.
 */
function createFileOpener(
  settings: WarehouseCoreSettings,
  lookWhileWaiting: (waitedMs: number) => Promise<boolean>,
): () => Promise<OpenDatabaseFile> {
  const { path, access, log } = settings;
  const marker = turnMarkerOf(path);
  /** Migrated (write) or found up to date (read) at the first open: the later opens skip the check. */
  let upToDate = false;
  return async () => {
    let waited = false;
    const opened = await openDatabaseFile({
      path,
      lockWaitMs: settings.lockWaitMs,
      readOnly: access === 'read',
      memoryLimit: settings.limits.memoryLimit,
      threads: settings.limits.threads,
      log,
      onLockWait: async (waitedMs) => {
        // the writer holding the file serves reads: ask it; ask for the file only if none answers
        if (access === 'read' && !(await lookWhileWaiting(waitedMs))) return;
        waited = true;
        askForTurn(marker, access === 'read' ? 'reader' : 'writer');
      },
    }).finally(() => {
      if (waited) withdrawTurnRequest(marker);
    });
    try {
      if (!upToDate) {
        if (access === 'write') await runMigrations(opened.connection, { now: settings.now, log });
        else await checkMigrations(opened.connection, path);
        upToDate = true;
      }
    } catch (error) {
      opened.release();
      throw isCorruptionError(error) ? corruptWarehouseError(path, error) : error;
    }
    return opened;
  };
}

// Opens the warehouse: creates the data directory, opens the DuckDB file (waiting while another process
// holds it), applies pending migrations and returns the Warehouse. Its operations run one at a time;
// close() releases the file so that other processes can open it between runs.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { EtlError } from '../errors.js';
import type { Logger } from '../log.js';
import { commitCatalogues } from './commit-catalogues.js';
import { commitWindow } from './commit-window.js';
import { corruptWarehouseError, isCorruptionError } from './corrupt-warehouse-error.js';
import { countRejects, finishRun, listRuns, startRun } from './etl-runs.js';
import { getWatermark } from './get-watermark.js';
import { openDatabaseFile } from './open-database-file.js';
import { queryRows } from './query-rows.js';
import { readLatestStatuses } from './read-latest-statuses.js';
import { runMigrations } from './run-migrations.js';
import { createSerialQueue } from './serial-queue.js';
import { streamRows } from './stream-rows.js';
import type { StreamedRows, Warehouse } from './warehouse.js';

export const DEFAULT_LOCK_WAIT_MS = 30_000;

export interface OpenWarehouseOptions {
  /** The DuckDB file; its directory is created when missing. `:memory:` for a throwaway warehouse. */
  path: string;
  /** How long to wait for another process to release the file before failing (default 30 s). */
  lockWaitMs?: number;
  log?: Logger;
  /** The clock for run times and catalogue sync times (default Date.now). */
  now?: () => number;
  /** After how long without a heartbeat a running run counts as abandoned (default LEASE.staleMs). */
  leaseStaleMs?: number;
}

export async function openWarehouse(options: OpenWarehouseOptions): Promise<Warehouse> {
  const now = options.now ?? Date.now;
  const log = options.log;
  if (options.path !== ':memory:') {
    try {
      mkdirSync(dirname(options.path), { recursive: true });
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOTDIR')
        throw new EtlError(
          'warehouse.dir_not_folder',
          `The folder of the warehouse file ${options.path} is a file (or lies under one), not a folder: ` +
            'set REPORTER_DATA_DIR to a folder',
          { kind: 'usage', cause },
        );
      throw new EtlError(
        'warehouse.open_failed',
        `Could not create the directory of the warehouse file ${options.path}: ${(cause as Error).message}`,
        { cause },
      );
    }
  }
  const db = await openDatabaseFile({
    path: options.path,
    lockWaitMs: options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS,
    log,
  });
  const { connection } = db;
  try {
    await runMigrations(connection, { now, log });
  } catch (error) {
    db.release();
    throw isCorruptionError(error) ? corruptWarehouseError(options.path, error) : error;
  }
  log?.debug({ path: options.path }, 'warehouse opened');

  const queue = createSerialQueue();
  let closed = false;
  const enqueue = <T>(operation: string, work: () => Promise<T>): Promise<T> => {
    if (closed) {
      return Promise.reject(
        new EtlError('warehouse.closed', `The warehouse ${options.path} is closed (cannot ${operation})`),
      );
    }
    return queue.run(work);
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
    commitWindow: (batch) => enqueue('commit a window', () => commitWindow(connection, batch)),
    commitCatalogues: (batch) =>
      enqueue('commit catalogues', () => commitCatalogues(connection, batch, now())),
    startRun: (run) =>
      enqueue('start a run', () => wrapQuery(() => startRun(connection, run, now(), options.leaseStaleMs))),
    finishRun: (runId, result) =>
      enqueue('finish a run', () => wrapQuery(() => finishRun(connection, runId, result, now()))),
    getWatermark: (project) =>
      enqueue('read a watermark', () => wrapQuery(() => getWatermark(connection, project))),
    listRuns: (listOptions) => enqueue('list runs', () => wrapQuery(() => listRuns(connection, listOptions))),
    countRejects: (runId) => enqueue('count rejects', () => wrapQuery(() => countRejects(connection, runId))),
    latestStatuses: (project, sessionIds, between) =>
      enqueue('read statuses', () =>
        wrapQuery(() => readLatestStatuses(connection, project, sessionIds, between)),
      ),
    query: (sql, params) => enqueue('query', () => wrapQuery(() => queryRows(connection, sql, params))),
    async *streamRows(sql, params) {
      // holds the queue from the first chunk to the end of the iteration: one statement at a time
      let release = () => {};
      let started = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const turn = new Promise<void>((resolve) => (started = resolve));
      const slot = enqueue('stream rows', () => {
        started();
        return held;
      });
      let rows: AsyncGenerator<StreamedRows> | undefined;
      try {
        await Promise.race([turn, slot]);
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
    async close() {
      if (closed) return;
      closed = true;
      await queue.drain();
      db.release();
      log?.debug({ path: options.path }, 'warehouse closed');
    },
  };
}

// Opens the warehouse: a Warehouse whose operations run one at a time on one DuckDB file, composed in
// warehouse-core.ts of the file holder (file-holder.ts), the writer's policy (writer-policy.ts: a writer keeps
// the file between operations, serving other processes' reads, until another process asks for it or it has
// been idle a second) and the readers' router (read-router.ts: the writer's read service, else the file,
// READ_ONLY, only while an operation or hold() runs). Here: the options, the checks at start, the operations.
import { accessSync, constants, existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import { makeDirectory } from '../files/make-directory.js';
import { assertTrustedFolder, TRUSTED_FOLDER_MODE } from '../files/trusted-folder.js';
import type { Logger } from '../log.js';
import { commitBatch } from './commit-batch.js';
import { commitCatalogues } from './commit-catalogues.js';
import { commitWindow } from './commit-window.js';
import { finishRun, startRun } from './etl-runs.js';
import { makeQueryError } from './make-query-error.js';
import { DUCKDB_MEMORY_LIMIT, DUCKDB_THREADS } from './open-database-file.js';
import { runStatement } from './query-rows.js';
import type { ReadRequest } from './read-request.js';
import { runInTransaction } from './run-in-transaction.js';
import { turnMarkerOf } from './turn-marker.js';
import type {
  ListRunsOptions,
  PlainRow,
  RunRecord,
  SqlParams,
  StreamedRows,
  Warehouse,
} from './warehouse.js';
import { createWarehouseCore, type WarehouseCore } from './warehouse-core.js';

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
  const access = options.access ?? 'write';
  checkWarehouseFile(options.path, access);
  const core = await createWarehouseCore({
    path: options.path,
    access,
    lockWaitMs: options.lockWaitMs ?? (access === 'read' ? DEFAULT_READ_LOCK_WAIT_MS : DEFAULT_LOCK_WAIT_MS),
    limits: { memoryLimit: options.memoryLimit, threads: options.threads },
    log: options.log,
    now: options.now ?? Date.now,
    socketRoot: options.socketRoot,
  });
  options.log?.debug({ path: options.path, access }, 'warehouse opened');
  return presentWarehouse(core, options, access);
}

/**
 * A write warehouse needs a writable file and folder; a read one, a file that exists. Either needs a folder no
 * other user can write to (it writes the turn marker there; DuckDB follows a link at the file or its .wal).
 */
function checkWarehouseFile(path: string, access: WarehouseAccess): void {
  if (path === ':memory:') return;
  if (access === 'write') assertWarehouseWritable(path);
  else if (!existsSync(path))
    throw new EtlError(
      'warehouse.missing',
      `REPORTER_DATA_DIR: there is no warehouse at ${path} yet; run reporter-etl sync first`,
      { kind: 'usage' },
    );
  assertWarehouseFolderTrusted(path);
}

/**
 * Throws config.data_dir_unsafe (exit 2) when another user can write to the warehouse's folder, or when the
 * warehouse, its .wal, its turn marker or DuckDB's spill folder is a link leading out of it.
 */
export function assertWarehouseFolderTrusted(path: string): void {
  const name = basename(path);
  assertTrustedFolder(dirname(path), {
    setting: 'REPORTER_DATA_DIR',
    files: [name, `${name}.wal`, turnMarkerOf(name), `${name}.tmp`],
  });
}

/** The Warehouse interface over the core: each operation queued, run on the file or where the router says. */
function presentWarehouse(
  core: WarehouseCore,
  options: OpenWarehouseOptions,
  access: WarehouseAccess,
): Warehouse {
  const now = options.now ?? Date.now;
  const asQueryError = (cause: unknown): Error => makeQueryError(options.path, cause);
  const enqueue = <T>(operation: string, work: (connection: DuckDBConnection) => Promise<T>): Promise<T> =>
    core.run(operation, async () => work(await core.connect()));
  const wrapQuery = <T>(work: () => Promise<T>): Promise<T> => wrapQueryError(work, asQueryError);
  const read = <T>(operation: string, request: ReadRequest, parquetPath?: string): Promise<T> =>
    core.run(operation, async () => (await core.router.read(request, parquetPath)) as T);
  const limits = core.limits;
  return {
    path: options.path,
    access,
    commitWindow: (batch) => enqueue('commit a window', (c) => commitWindow(c, batch)),
    commitBatch: (batch) => enqueue('commit a batch', (c) => commitBatch(c, batch, asQueryError)),
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
    streamRows: (sql, params) => streamInTurn(core, sql, params, asQueryError),
    // keeps the file open across the operations of `work` (one snapshot for a report's queries)
    hold: (work) => core.hold(work),
    async setMemoryLimit(limit) {
      // the opens that follow use it; a file open now (in memory, or inside hold()) gets it at once
      limits.memoryLimit = limit ?? options.memoryLimit;
      if (!core.holder.file) return;
      const value = limits.memoryLimit ?? DUCKDB_MEMORY_LIMIT;
      await enqueue('set the memory limit', async (c) => {
        await c.run(`SET memory_limit = '${value.replaceAll("'", "''")}'`);
      });
    },
    async setThreads(count) {
      // as setMemoryLimit: the opens that follow use it, a file open now gets it at once
      limits.threads = count ?? options.threads;
      if (!core.holder.file) return;
      const value = limits.threads ?? DUCKDB_THREADS;
      await enqueue('set the threads', async (c) => {
        await c.run(`SET threads = ${Math.trunc(value)}`);
      });
    },
    async close() {
      await core.close();
      options.log?.debug({ path: options.path }, 'warehouse closed');
    },
  };
}

/**
 * Warehouse.streamRows: holds the queue (and the file, or the writer's connection) from the first chunk to
 * the end of the iteration: one statement.
 */
async function* streamInTurn(
  core: WarehouseCore,
  sql: string,
  params: SqlParams | undefined,
  asQueryError: (cause: unknown) => Error,
): AsyncGenerator<StreamedRows> {
  let release = () => {};
  let started = (_unused: true) => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const turn = new Promise<true>((resolve) => (started = resolve));
  const slot = core.run('stream rows', async () => {
    started(true);
    await held;
  });
  let rows: AsyncGenerator<StreamedRows> | undefined;
  try {
    if (!(await Promise.race([turn, slot.then(() => false)]))) return;
    const opened = await core.router.openStream(sql, params);
    rows = opened.rows;
    if (opened.first.done) return;
    yield opened.first.value;
    for (;;) {
      const next = await wrapQueryError(() => (rows as AsyncGenerator<StreamedRows>).next(), asQueryError);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await rows?.return(undefined).catch(() => undefined);
    release();
    await slot.catch(() => undefined);
  }
}

async function wrapQueryError<T>(
  work: () => Promise<T>,
  asQueryError: (cause: unknown) => Error,
): Promise<T> {
  try {
    return await work();
  } catch (cause) {
    throw asQueryError(cause);
  }
}

/**
 * Throws `warehouse.read_only` (exit 2) when the process cannot write the warehouse file or its directory
 * (a read-only file system, a file or directory without write permission): a write command fails at start.
 */
export function assertWarehouseWritable(path: string): void {
  if (path === ':memory:') return;
  const dir = dirname(path);
  try {
    makeDirectory(dir, TRUSTED_FOLDER_MODE);
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

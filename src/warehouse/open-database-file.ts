// Opens the DuckDB file behind the warehouse, read-write or READ_ONLY (many readers share the file; a
// writer excludes everyone), waiting while another process holds a conflicting lock and then failing with an
// EtlError (warehouse.locked, transient) that names the file and the holder. DuckDB's lock is per process,
// so a second open of one file inside this process is refused here, the same way.
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { DUCKDB_MEMORY_LIMIT } from '../config.js';
import { EtlError } from '../errors.js';
import type { Logger } from '../log.js';
import { CONFIG_DEFAULTS } from '../settings/config-defaults.js';
import { corruptWarehouseError, isCorruptionError } from './corrupt-warehouse-error.js';
import { duckdb } from './duckdb-api.js';
import { isOutOfSpace, outOfSpaceError } from './out-of-space.js';
import { describeLockHolder, isLockError, type LockHolder, parseLockHolder } from './parse-lock-holder.js';

export interface OpenDatabaseFile {
  instance: DuckDBInstance;
  connection: DuckDBConnection;
  /** Closes the connection and the instance: the file lock is released. Idempotent. */
  release(): void;
}

/** Files this process has open; DuckDB would let a process open one file twice and corrupt it. */
const openInThisProcess = new Set<string>();

// short retries: a window commit holds the file for well under a second, and fcntl locks do not queue
const FIRST_RETRY_MS = 25;
const MAX_RETRY_MS = 100;

export interface OpenDatabaseFileOptions {
  path: string;
  lockWaitMs: number;
  /** READ_ONLY: shares the file with other readers; waits only for a writer. */
  readOnly?: boolean;
  /** DuckDB's memory_limit for this open (default DUCKDB_MEMORY_LIMIT; commands pass config.memoryLimit). */
  memoryLimit?: string | undefined;
  /** DuckDB's worker threads for this open (default DUCKDB_THREADS; the sync passes config.syncThreads). */
  threads?: number | undefined;
  log?: Logger | undefined;
  /** More DuckDB instance options (e.g. enable_external_access false); they override the defaults below. */
  settings?: Record<string, string> | undefined;
  /**
   * Called (and awaited) at each failed attempt while waiting for the lock: a reader looks for the writer's
   * read service, and announces itself to the writer. What it throws ends the wait.
   */
  onLockWait?: ((waitedMs: number) => void | Promise<void>) | undefined;
}

export async function openDatabaseFile(options: OpenDatabaseFileOptions): Promise<OpenDatabaseFile> {
  const key = resolve(options.path);
  const started = performance.now();
  let delay = FIRST_RETRY_MS;
  let warned = false;
  for (;;) {
    let holder: LockHolder | undefined;
    let lockError: Error | undefined;
    if (openInThisProcess.has(key)) {
      holder = { program: 'this process', pid: process.pid };
    } else {
      try {
        const opened = await openOnce(options, key);
        if (warned)
          options.log?.info(
            { path: options.path, waitedMs: Math.round(performance.now() - started) },
            'warehouse lock acquired after waiting',
          );
        return opened;
      } catch (error) {
        if (isCorruptionError(error)) throw corruptWarehouseError(options.path, error);
        if (isOutOfSpace(error))
          throw outOfSpaceError(`Could not open the warehouse file ${options.path}`, error);
        if (!isLockError(error)) {
          throw new EtlError(
            'warehouse.open_failed',
            `Could not open the warehouse file ${options.path}: ${(error as Error).message}`,
            { cause: error },
          );
        }
        lockError = error as Error;
        holder = parseLockHolder(lockError.message);
      }
    }
    await options.onLockWait?.(performance.now() - started);
    const waited = performance.now() - started;
    if (waited >= options.lockWaitMs) {
      const unparsed = lockError && !holder ? ` DuckDB said: ${lockError.message}` : '';
      throw new EtlError(
        'warehouse.locked',
        options.readOnly
          ? `The warehouse file ${options.path} is being written by ${describeLockHolder(holder)}; ` +
              `waited ${Math.round(waited)} ms for it to finish committing. Try again in a moment.${unparsed}`
          : `The warehouse file ${options.path} is locked by ${describeLockHolder(holder)} (writing, or ` +
              `reading); waited ${Math.round(waited)} ms. Wait for that process to finish (or stop it) and ` +
              `try again.${unparsed}`,
        { kind: 'transient', cause: lockError },
      );
    }
    if (!warned) {
      warned = true;
      options.log?.warn(
        { path: options.path, holder: describeLockHolder(holder), lockWaitMs: options.lockWaitMs },
        options.readOnly
          ? `waiting for ${describeLockHolder(holder)} to finish committing to the warehouse`
          : `waiting for ${describeLockHolder(holder)} to release the warehouse`,
      );
    }
    await sleep(Math.min(delay, options.lockWaitMs - waited));
    delay = Math.min(delay * 2, MAX_RETRY_MS);
  }
}

/** DuckDB's worker threads when the caller gives none (REPORTER_DUCKDB_THREADS's default). */
export const DUCKDB_THREADS = CONFIG_DEFAULTS.REPORTER_DUCKDB_THREADS;

/** DuckDB's memory limit (it spills to disk beyond it) when the caller gives none (config.ts's default). */
export { DUCKDB_MEMORY_LIMIT };

async function openOnce(options: OpenDatabaseFileOptions, key: string): Promise<OpenDatabaseFile> {
  // a bounded buffer pool: the sync's peak memory must stay flat as the warehouse grows
  const instance = await duckdb().DuckDBInstance.create(options.path, {
    memory_limit: options.memoryLimit ?? DUCKDB_MEMORY_LIMIT,
    threads: String(options.threads ?? DUCKDB_THREADS),
    ...(options.readOnly ? { access_mode: 'READ_ONLY' } : {}),
    ...options.settings,
  });
  let connection: DuckDBConnection;
  try {
    connection = await instance.connect();
  } catch (error) {
    instance.closeSync();
    throw error;
  }
  openInThisProcess.add(key);
  let released = false;
  return {
    instance,
    connection,
    release() {
      if (released) return;
      released = true;
      try {
        connection.closeSync();
      } finally {
        instance.closeSync();
        openInThisProcess.delete(key);
      }
    },
  };
}

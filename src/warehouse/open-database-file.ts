// Opens the DuckDB file behind the warehouse, waiting while another process holds its lock and then
// failing with an EtlError (warehouse.locked, transient) that names the file and the holder. DuckDB's
// lock is per process, so a second open of one file inside this process is refused here, the same way.
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import type { Logger } from '../log.js';
import { corruptWarehouseError, isCorruptionError } from './corrupt-warehouse-error.js';
import { describeLockHolder, isLockError, type LockHolder, parseLockHolder } from './parse-lock-holder.js';

export interface OpenDatabaseFile {
  instance: DuckDBInstance;
  connection: DuckDBConnection;
  /** Closes the connection and the instance: the file lock is released. Idempotent. */
  release(): void;
}

/** Files this process has open; DuckDB would let a process open one file twice and corrupt it. */
const openInThisProcess = new Set<string>();

const FIRST_RETRY_MS = 50;
const MAX_RETRY_MS = 500;

export async function openDatabaseFile(options: {
  path: string;
  lockWaitMs: number;
  log?: Logger | undefined;
  /** More DuckDB instance options (e.g. access_mode READ_ONLY); they override the defaults below. */
  settings?: Record<string, string> | undefined;
}): Promise<OpenDatabaseFile> {
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
        return await openOnce(options.path, key, options.settings);
      } catch (error) {
        if (isCorruptionError(error)) throw corruptWarehouseError(options.path, error);
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
    const waited = performance.now() - started;
    if (waited >= options.lockWaitMs) {
      const unparsed = lockError && !holder ? ` DuckDB said: ${lockError.message}` : '';
      throw new EtlError(
        'warehouse.locked',
        `The warehouse file ${options.path} is locked by ${describeLockHolder(holder)}; ` +
          `waited ${Math.round(waited)} ms. Only one writer can use it at a time: wait for that process ` +
          `to finish (or stop it) and try again.${unparsed}`,
        { kind: 'transient', cause: lockError },
      );
    }
    if (!warned) {
      warned = true;
      options.log?.warn(
        { path: options.path, holder: describeLockHolder(holder), lockWaitMs: options.lockWaitMs },
        'warehouse file is locked by another process; waiting for it',
      );
    }
    await sleep(Math.min(delay, options.lockWaitMs - waited));
    delay = Math.min(delay * 2, MAX_RETRY_MS);
  }
}

/** DuckDB's memory limit (it spills to disk beyond it); REPORTER_DUCKDB_MEMORY_LIMIT overrides it. */
const DUCKDB_MEMORY_LIMIT = process.env['REPORTER_DUCKDB_MEMORY_LIMIT'] ?? '256MB';

async function openOnce(
  path: string,
  key: string,
  settings: Record<string, string> = {},
): Promise<OpenDatabaseFile> {
  // a bounded buffer pool: the sync's peak memory must stay flat as the warehouse grows
  const instance = await DuckDBInstance.create(path, {
    memory_limit: DUCKDB_MEMORY_LIMIT,
    threads: '2',
    ...settings,
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

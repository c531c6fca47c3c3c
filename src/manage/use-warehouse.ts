// The one way commands reach the warehouse: `read` (READ_ONLY, shared with other readers, waits only for a
// writer's commit) or `write` (checked writable at start). The Warehouse itself holds the
// DuckDB file only while an operation runs, so a command that talks to the platform between steps never
// keeps other processes out while it waits on the network.
import { AsyncLocalStorage } from 'node:async_hooks';
import { resolve } from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { assertWarehouseWritable, openWarehouse, type WarehouseAccess } from '../warehouse/open-warehouse.js';
import type { Warehouse } from '../warehouse/warehouse.js';

export type UseWarehouse = <T>(fn: (warehouse: Warehouse) => Promise<T>) => Promise<T>;

export interface WarehouseAt {
  path: string;
  /** Default `write`. */
  access?: WarehouseAccess;
  lockWaitMs: number;
  /** DuckDB's memory limit (config.memoryLimit, REPORTER_DUCKDB_MEMORY_LIMIT); the sync lowers it for its work. */
  memoryLimit?: string;
  /** DuckDB's worker threads (config.threads, REPORTER_DUCKDB_THREADS); the sync lowers them for its work. */
  threads?: number;
  log?: Logger;
}

/** The tail of this process's operations on each warehouse file, and the files the running one holds. */
const queues = new Map<string, Promise<unknown>>();
const holding = new AsyncLocalStorage<ReadonlySet<string>>();

/**
 * Opens the warehouse at `options.path`, runs `fn` with it and closes it, also when `fn` throws. This process's
 * operations on one file run one after the other: two at once (a task's heartbeat beside its update) opened the
 * file twice, and the second waited on DuckDB's lock held by this very process ("waiting for this process").
 * One nested in another (the same file, the same async context) opens it as before.
 */
async function withWarehouseAt<T>(
  options: WarehouseAt,
  fn: (warehouse: Warehouse) => Promise<T>,
): Promise<T> {
  const file = resolve(options.path);
  const held = holding.getStore();
  if (held?.has(file)) return openAndRun(options, fn);
  const turn = (queues.get(file) ?? Promise.resolve()).then(() =>
    holding.run(new Set([...(held ?? []), file]), () => openAndRun(options, fn)),
  );
  const tail = turn.catch(() => undefined);
  queues.set(file, tail);
  try {
    return await turn;
  } finally {
    if (queues.get(file) === tail) queues.delete(file);
  }
}

async function openAndRun<T>(options: WarehouseAt, fn: (warehouse: Warehouse) => Promise<T>): Promise<T> {
  const warehouse = await openWarehouse(options);
  try {
    return await fn(warehouse);
  } finally {
    await warehouse.close();
  }
}

/** A `useWarehouse` that opens `path` for each call; a `write` one fails now on a read-only warehouse. */
export function useWarehouseAt(options: WarehouseAt): UseWarehouse {
  if ((options.access ?? 'write') === 'write') assertWarehouseWritable(options.path);
  return (fn) => withWarehouseAt(options, fn);
}

/**
 * Where and how a command opens the configured warehouse. Readers and writers give up after
 * REPORTER_LOCK_WAIT_SECONDS: a reader only ever waits for one commit, which on a loaded machine can take
 * longer than the few seconds it takes on an idle one.
 */
export function configuredWarehouse(config: Config, access: WarehouseAccess, log?: Logger): WarehouseAt {
  return {
    path: config.warehousePath,
    access,
    lockWaitMs: config.lockWaitMs,
    memoryLimit: config.memoryLimit,
    threads: config.threads,
    ...(log ? { log } : {}),
  };
}

/** useWarehouseAt for the configured warehouse (see configuredWarehouse). */
export function useConfiguredWarehouse(config: Config, access: WarehouseAccess, log?: Logger): UseWarehouse {
  return useWarehouseAt(configuredWarehouse(config, access, log));
}

/** Runs a command's work with the configured warehouse (see configuredWarehouse), closed after it. */
export function withConfiguredWarehouse<T>(
  config: Config,
  access: WarehouseAccess,
  log: Logger,
  fn: (warehouse: Warehouse) => Promise<T>,
): Promise<T> {
  return withWarehouseAt(configuredWarehouse(config, access, log), fn);
}

// The receiver's loader: moves spooled records into the warehouse in batches bounded by bytes
// (REPORTER_WEBHOOKS_LOAD_MAX_BYTES) and by count, one transaction each with the spool offset it reaches.
// A batch the warehouse refuses for a value is loaded record by record and a refused record goes to
// etl_rejects; a batch that runs out of memory or disk is halved, and a single record that still does not
// fit ends the load (webhooks.load_out_of_resources): never a reject, and the spool keeps it all.
// Batches are idempotent (rows skipped by question_id, rejects as already kept), so one loaded twice after
// a failure or a crash between its commit and the next is stored once. While a load runs, DuckDB checkpoints
// only past LOAD_CHECKPOINT_THRESHOLD of WAL (load-duckdb-settings.ts: its checkpoints were the peak RSS).
import { EtlError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import { LOAD_SETTINGS, restoringLoadSettings } from './load-duckdb-settings.js';
import { isOutOfResources, loadOutOfResourcesError } from './load-resource-error.js';
import {
  type LoadContext,
  loadSpoolStatements,
  SELECT_SPOOL_OFFSET,
  spoolStateKey,
  WEBHOOKS_STATE_PROJECT,
} from './load-spool-sql.js';
import { readSpoolBatch, type SizedRecord, type SpoolBatchLimits } from './read-spool-batch.js';
import { MAX_KEPT_BYTES, type SpoolRecord, spoolStart } from './spool.js';
import { wellFormed } from './webhook-payloads.js';

/** The records of one load transaction at most, whatever their size. */
export const LOAD_MAX_RECORDS = 10_000;

export interface SpoolLoader {
  warehouse: Warehouse;
  log: Logger;
  /** The context of the statements, taken at each batch (its `now` is the time of the batch). */
  context: () => LoadContext;
  limits: SpoolBatchLimits;
}

/**
 * Loads the rest of spool file `name` at `path` from the offset the warehouse has for it, up to byte `upTo`
 * (a live spool's acknowledged end; a spool left behind: all of it); the records loaded. Each batch commits
 * the offset it reaches, so a failure midway leaves the rest for the next load.
 */
export function loadSpoolFile(
  loader: SpoolLoader,
  path: string,
  name: string,
  upTo = Number.POSITIVE_INFINITY,
): Promise<number> {
  // while records keep coming, the settings stay for the next load: DuckDB's default threshold between two
  // loads let a commit checkpoint mid-stream, and the next checkpoint rewrote those rows (load-duckdb-settings.ts)
  return restoringLoadSettings(
    loader.warehouse,
    () => loadFileBatches(loader, path, name, upTo),
    (loaded) => loaded > 0,
  );
}

async function loadFileBatches(
  loader: SpoolLoader,
  path: string,
  name: string,
  upTo: number,
): Promise<number> {
  const [row] = await loader.warehouse.query(SELECT_SPOOL_OFFSET, {
    project: WEBHOOKS_STATE_PROJECT,
    key: spoolStateKey(name),
  });
  let from = Number(row?.['value'] ?? 0);
  let loaded = 0;
  for (;;) {
    const batch = readSpoolBatch(path, from, loader.limits, upTo);
    if (batch.end === from) return loaded;
    await storeBatch(loader, name, batch.records, batch.end);
    loaded += batch.records.length;
    from = batch.end;
  }
}

/** Stores a batch and the offset it reaches (undefined: the rows alone) in one transaction, or as it can. */
async function storeBatch(
  loader: SpoolLoader,
  name: string,
  batch: readonly SizedRecord[],
  offset: number | undefined,
): Promise<void> {
  try {
    await execute(loader, name, batch, offset);
    return;
  } catch (error) {
    if (isOutOfResources(error)) return storeHalves(loader, name, batch, offset, error);
    if (!isRefusedStatement(error)) throw error;
    loader.log.warn({ err: error, spool: name, records: batch.length }, 'loading the batch record by record');
  }
  await storeOneByOne(loader, name, batch, offset);
}

/** A batch that ran out of memory or disk, in two halves; one record that did, ends the load. */
async function storeHalves(
  loader: SpoolLoader,
  name: string,
  batch: readonly SizedRecord[],
  offset: number | undefined,
  error: unknown,
): Promise<void> {
  if (batch.length <= 1) throw loadOutOfResourcesError(error, name, describeRecord(batch[0]));
  loader.log.warn(
    { err: error, spool: name, records: batch.length },
    'the batch did not fit in the warehouse: loading it in halves',
  );
  const middle = Math.ceil(batch.length / 2);
  await storeBatch(loader, name, batch.slice(0, middle), batch[middle - 1]!.end);
  await storeBatch(loader, name, batch.slice(middle), offset);
}

/**
 * When the warehouse refuses a batch's statements (not a lock: a value it cannot take), one record must not
 * hold back the others forever: each is stored alone, a refused one is kept in etl_rejects with the reason,
 * then the offset. A record that runs out of memory or disk is not refused: it ends the load.
 */
async function storeOneByOne(
  loader: SpoolLoader,
  name: string,
  batch: readonly SizedRecord[],
  offset: number | undefined,
): Promise<void> {
  const refused: SizedRecord[] = [];
  for (const sized of batch) {
    try {
      await execute(loader, name, [sized], undefined);
    } catch (error) {
      if (isOutOfResources(error)) throw loadOutOfResourcesError(error, name, describeRecord(sized));
      if (!isRefusedStatement(error)) throw error;
      const reject = asUnstorable(sized.record, (error as Error).message, spoolStart(name));
      refused.push({ record: reject, bytes: sized.bytes });
    }
  }
  try {
    await execute(loader, name, refused, offset);
  } catch (error) {
    throw isOutOfResources(error) ? loadOutOfResourcesError(error, name, undefined) : error;
  }
}

function execute(
  loader: SpoolLoader,
  name: string,
  batch: readonly SizedRecord[],
  offset: number | undefined,
): Promise<number[]> {
  const records = batch.map((sized) => sized.record);
  const statements = loadSpoolStatements(name, records, offset, loader.context());
  return loader.warehouse.execute([...LOAD_SETTINGS, ...statements]);
}

function describeRecord(sized: SizedRecord | undefined) {
  return sized && { receivedAt: sized.record.receivedAt, bytes: sized.bytes };
}

/** The statements themselves failed (a value the warehouse cannot take), not the warehouse (a lock, a closed file). */
function isRefusedStatement(error: unknown): boolean {
  return error instanceof EtlError && error.code === 'warehouse.query_failed';
}

/** A spooled record the warehouse refused, as a reject: its body as JSON (cut at 64 KiB) and the reason. */
function asUnstorable(record: SpoolRecord, reason: string, spoolStartedAt: number): SpoolRecord {
  // a receive time the warehouse cannot hold is replaced by its spool's start: the same on every reload
  const valid = Number.isFinite(record.receivedAt) && Math.abs(record.receivedAt) <= 8.64e15;
  return {
    route: 'reject',
    receivedAt: valid ? record.receivedAt : spoolStartedAt,
    body: JSON.stringify(wellFormed(record.body) ?? null).slice(0, MAX_KEPT_BYTES),
    reason: `could not be stored: ${String(wellFormed(reason)).slice(0, 1000)}`,
    endpoint: record.route === 'reject' ? (record.endpoint ?? 'webhooks') : `webhooks/${record.route}`,
  };
}

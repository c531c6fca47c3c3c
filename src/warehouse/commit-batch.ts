// The one batch commit of every source, in ONE transaction: each table's rows staged with DuckDB's appender,
// then written as its TableSpec says (replace-by-key: the stored rows whose key a staged row carries are
// deleted and the staged rows inserted, the last staged of a key winning; append: inserted as staged), then
// the sources' state and the run's counters. A failure rolls all of it back: nothing of the batch remains.
import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import {
  addToRun,
  DELETE_STATE,
  deleteByKey,
  INSERT_STATE,
  insertAll,
  insertLatest,
} from './commit-batch-sql.js';
import { runStatement } from './query-rows.js';
import { runInTransaction } from './run-in-transaction.js';
import { type StagedTable, stageRows } from './stage-rows.js';
import type { TableSpec } from './table-spec.js';
import type { SqlParam, SqlStatement } from './warehouse.js';

/** A source's own statement in a batch; its changed-row count is returned under `name`, when named. */
export interface BatchStatement extends SqlStatement {
  name?: string;
}

/** Rows staged for the batch's own statements only (no table of their own is written from them). */
export interface StagedRows<R = never> {
  stage: StagedTable<R>;
  rows: readonly R[];
}

export interface BatchTable<R = never> extends StagedRows<R> {
  /** The table written; the stage's column names are its columns. */
  spec: TableSpec;
  /** Columns filled with one bound value for the whole batch (`synced_at`, ...): bound as `$<column>`. */
  constants?: Readonly<Record<string, SqlParam>>;
  /**
   * replace-by-key: the columns the stored rows are deleted by, where a batch replaces more than single keys
   * (a session's labels: every label of a staged session); by default the spec's key.
   */
  replaceKey?: readonly string[];
  /**
   * replace-by-key: every stored row with these column values is replaced (a project's whole catalogue), not
   * only the staged keys; bound as `$<column>`.
   */
  replaceScope?: Readonly<Record<string, SqlParam>>;
  /** replace-by-key: more staged tables whose `replaceKey` values also delete stored rows. */
  replaceAlso?: readonly string[];
  /**
   * replace-by-key: a column that never changes for a key (a message's time), so the delete reads the table
   * only between its staged min and max (zone maps skip the rest). As SQL, quoted where it is a keyword.
   */
  immutableTime?: string;
  /** The source's own INSERT where the default cannot say it (it reads the stage itself); bound with constants. */
  insert?: string;
  /** Statements run just before this table is written (the statuses first seen, before the messages). */
  before?: readonly BatchStatement[];
}

export interface StateEntry {
  project: string;
  key: string;
  value: string;
}

export interface Batch {
  /** Written in this order, each after its `before` statements. */
  tables: readonly BatchTable<never>[];
  /** Staged before the tables are written, for the source's own statements. */
  staged?: readonly StagedRows<never>[];
  /** Statements after the tables, before the state. */
  after?: readonly BatchStatement[];
  /** etl_state entries set (replaced) by the batch. */
  state?: readonly StateEntry[];
  /**
   * The run whose counters the batch adds to: `add(counts)` names each etl_runs column and what to add, from
   * the rows written (`counts`); with `beatAt` the batch is also a heartbeat of the run.
   */
  run?: { runId: string; add: (counts: BatchCounts) => Readonly<Record<string, number>>; beatAt?: Date };
  /** etl_state's updated_at. */
  at: Date;
}

/** Rows changed, by table name (the inserted rows) and by statement name. */
export type BatchCounts = Readonly<Record<string, number>>;

const NAME = /^[a-z_][a-z0-9_]*$/;

/** A table of a batch, its row type erased so that tables of different rows make one list. */
export function defineBatchTable<R>(table: BatchTable<R>): BatchTable<never> {
  return table as unknown as BatchTable<never>;
}

/** Rows staged for the batch's own statements, their row type erased. */
export function defineStagedRows<R>(staged: StagedRows<R>): StagedRows<never> {
  return staged as unknown as StagedRows<never>;
}

/** Commits the batch in one transaction; on any error rolls back and throws `wrapError(cause)`. */
export function commitBatch(
  connection: DuckDBConnection,
  batch: Batch,
  wrapError: (cause: unknown) => Error,
): Promise<BatchCounts> {
  return runInTransaction(connection, () => writeBatch(connection, batch), wrapError);
}

/** The batch's work inside the caller's transaction. */
export async function writeBatch(connection: DuckDBConnection, batch: Batch): Promise<BatchCounts> {
  for (const table of batch.tables) await stageRows(connection, table.stage, table.rows);
  for (const staged of batch.staged ?? []) await stageRows(connection, staged.stage, staged.rows);
  const counts: Record<string, number> = {};
  const run = async (statements: readonly BatchStatement[]) => {
    for (const statement of statements) {
      const changed = await runStatement(connection, statement.sql, statement.params);
      if (statement.name !== undefined) counts[statement.name] = changed;
    }
  };
  for (const table of batch.tables) {
    await run(table.before ?? []);
    const [remove, insert] = describeTableWrite(table);
    if (remove !== undefined)
      counts[replacedCountOf(table.spec.name)] = await runStatement(connection, remove, table.replaceScope);
    counts[table.spec.name] = await runStatement(connection, insert, table.constants);
  }
  await run(batch.after ?? []);
  for (const entry of batch.state ?? []) {
    const state = { project: entry.project, key: entry.key };
    await runStatement(connection, DELETE_STATE, state);
    await runStatement(connection, INSERT_STATE, { ...state, value: entry.value, updated_at: batch.at });
  }
  if (batch.run !== undefined) {
    const add = batch.run.add(counts);
    const columns = Object.keys(add);
    for (const column of columns) checkName(column, 'etl_runs column');
    const beat = batch.run.beatAt !== undefined;
    await runStatement(connection, addToRun(columns, beat), {
      ...add,
      run_id: batch.run.runId,
      ...(beat ? { seen_at: batch.run.beatAt ?? null } : {}),
    });
  }
  return counts;
}

/** The name in a batch's counts of the stored rows a replace-by-key table's DELETE removed (rows read again). */
export function replacedCountOf(table: string): string {
  return `${table}.replaced`;
}

/** The DELETE (replace-by-key only) and the INSERT that write one table from its stage. */
export function describeTableWrite(table: BatchTable<never>): [string | undefined, string] {
  const { spec, stage } = table;
  checkName(spec.name, 'table');
  const columns = stage.columns.map((c) => quoteName(c.name));
  const extra: Record<string, string> = {};
  for (const column of Object.keys(table.constants ?? {}))
    extra[quoteName(column)] = `$${checkName(column, 'column')}`;
  if (spec.write === 'append')
    return [undefined, table.insert ?? insertAll(spec.name, stage.name, columns, extra)];
  if (table.replaceScope !== undefined) {
    const scope = Object.keys(table.replaceScope).map((c) => `${quoteName(c)} = $${c}`);
    const insert = table.insert ?? insertLatest(spec.name, stage.name, columns, spec.key, extra);
    return [`DELETE FROM ${spec.name} WHERE ${scope.join(' AND ')}`, insert];
  }
  const key = table.replaceKey ?? spec.key;
  if (key.length === 0)
    throw new EtlError('warehouse.invalid_batch', `Table ${spec.name} is replaced by key but has no key`);
  const remove = deleteByKey(spec.name, key, [stage.name, ...(table.replaceAlso ?? [])], table.immutableTime);
  return [remove, table.insert ?? insertLatest(spec.name, stage.name, columns, spec.key, extra)];
}

function checkName(name: string, what: string): string {
  if (!NAME.test(name))
    throw new EtlError(
      'warehouse.invalid_batch',
      `Not a ${what} name of the batch commit: ${JSON.stringify(name)}`,
    );
  return name;
}

/** A column name in the INSERT's lists: quoted, so that a keyword (timestamp, type) is a name. */
function quoteName(name: string): string {
  return `"${checkName(name, 'column')}"`;
}

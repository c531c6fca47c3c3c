// Rebuilds the statistics' rollups (migration 024) from the raw rows, in one transaction: every rollup table
// emptied, then filled by the very statements of the migration (those after its `-- fill` line), so the
// migration and `reporter-etl rollups rebuild` can never fill them differently.
import { readFileSync } from 'node:fs';
import { EtlError } from '../errors.js';
import type { Batch } from './commit-batch.js';
import { locateMigrationsDir, readMigrations } from './run-migrations.js';

/** The migration that creates and fills the rollups. */
export const ROLLUPS_MIGRATION = 24;

/** The rollup tables, in the order the migration fills them. */
export const ROLLUP_TABLES = [
  'stat_transfers',
  'stat_sessions',
  'stat_session_labels',
  'stat_session_data',
  'stat_session_quarters',
  'stat_duration_quarters',
  'stat_session_label_quarters',
  'stat_session_data_quarters',
  'stat_message_quarters',
  'stat_label_quarters',
] as const;

const FILL_MARKER = /^-- fill$/m;

/** The fill statements of migration 024, one per entry. */
export function readRollupFill(dir = locateMigrationsDir()): string[] {
  const migration = readMigrations(dir).find((m) => m.version === ROLLUPS_MIGRATION);
  const sql = migration?.sql ?? readFileSync(`${dir}/024_stat_rollups.sql`, 'utf8');
  const at = sql.search(FILL_MARKER);
  if (at < 0)
    throw new EtlError(
      'warehouse.migrations_invalid',
      `The rollups migration ${ROLLUPS_MIGRATION} in ${dir} has no "-- fill" line`,
    );
  return sql
    .slice(at)
    .split(/;\s*$/m)
    .map((statement) => statement.replace(/^--[^\n]*$/gm, '').trim())
    .filter((statement) => statement !== '');
}

/** The rebuild as one batch (no tables): each rollup emptied, then filled again. */
export function describeRollupRebuild(at: Date, dir?: string): Batch {
  return {
    tables: [],
    after: [
      ...ROLLUP_TABLES.map((table) => ({ sql: `DELETE FROM ${table}` })),
      ...readRollupFill(dir).map((sql, i) => ({ sql, name: ROLLUP_TABLES[i] })),
    ],
    at,
  };
}

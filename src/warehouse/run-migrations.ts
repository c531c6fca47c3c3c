// Brings the warehouse schema up to date: applies the pending migrations/NNN_name.sql in order, each in its own
// transaction together with its row in schema_migrations (a new warehouse's all in one), so a crash never leaves
// half a migration.
// tsc does not copy .sql files into dist/, so the directory is looked up next to this file or in src/.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import type { Logger } from '../log.js';
import { runInTransaction } from './run-in-transaction.js';
import { WAREHOUSE_SQL } from './warehouse-sql.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const MIGRATION_FILE = /^(\d+)_([A-Za-z0-9_-]+)\.sql$/;

/** The migrations directory: src/warehouse/migrations, whether this code runs from src/ or dist/src/. */
export function locateMigrationsDir(): string {
  const candidates = [
    new URL('./migrations/', import.meta.url),
    new URL('../../../src/warehouse/migrations/', import.meta.url),
  ];
  for (const candidate of candidates) {
    const dir = fileURLToPath(candidate);
    if (existsSync(dir)) return dir;
  }
  throw new EtlError(
    'warehouse.migrations_missing',
    `The warehouse migrations were not found (looked in ${candidates.map((c) => fileURLToPath(c)).join(', ')})`,
  );
}

/** The migrations of a directory, ordered by version; refuses two files with one version. */
export function readMigrations(dir: string): Migration[] {
  const migrations: Migration[] = [];
  for (const file of readdirSync(dir).sort()) {
    const match = MIGRATION_FILE.exec(file);
    if (!match?.[1] || !match[2]) continue;
    migrations.push({
      version: Number(match[1]),
      name: match[2],
      sql: readFileSync(`${dir}/${file}`, 'utf8'),
    });
  }
  migrations.sort((a, b) => a.version - b.version);
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i]?.version === migrations[i - 1]?.version) {
      throw new EtlError(
        'warehouse.migrations_invalid',
        `Two warehouse migrations have version ${migrations[i]?.version} in ${dir}`,
      );
    }
  }
  return migrations;
}

/**
 * What a reader (a READ_ONLY open, which cannot migrate) checks: every migration is applied; else
 * `warehouse.needs_upgrade` (exit 2) tells to run a write command (sync) first, or `warehouse.schema_newer`.
 */
export async function checkMigrations(
  connection: DuckDBConnection,
  path: string,
  dir?: string,
): Promise<void> {
  const migrations = readMigrations(dir ?? locateMigrationsDir());
  const exists = await connection.runAndReadAll(
    "SELECT count(*) FROM information_schema.tables WHERE table_name = 'schema_migrations'",
  );
  const applied = new Set<number>();
  if (Number(exists.getRowsJS()[0]?.[0]) > 0) {
    const reader = await connection.runAndReadAll(WAREHOUSE_SQL.selectAppliedMigrations);
    for (const row of reader.getRowsJS()) applied.add(Number(row[0]));
  }
  throwIfNewer(migrations, applied);
  const missing = migrations.filter((m) => !applied.has(m.version));
  if (missing.length > 0)
    throw new EtlError(
      'warehouse.needs_upgrade',
      `REPORTER_DATA_DIR: the warehouse ${path} lacks schema migration(s) ${missing.map((m) => m.version).join(', ')} ` +
        'and a read-only command cannot apply them: run reporter-etl sync (it upgrades the schema) first.',
      { kind: 'usage' },
    );
}

function throwIfNewer(migrations: readonly Migration[], applied: ReadonlySet<number>): void {
  const known = new Set(migrations.map((m) => m.version));
  const unknown = [...applied].filter((v) => !known.has(v));
  if (unknown.length > 0) {
    throw new EtlError(
      'warehouse.schema_newer',
      `The warehouse has schema migration(s) ${unknown.join(', ')} that this version of reporter-etl does not know: ` +
        'it was written by a newer version. Upgrade reporter-etl, or use another data directory.',
      // the setting (REPORTER_DATA_DIR) or the version must change: exit 2, as the documented table says
      { kind: 'usage' },
    );
  }
}

/**
 * Migrations and their rows in schema_migrations, in ONE transaction. A new warehouse takes all of them at
 * once (one commit per migration cost it twice the CPU: the test suite makes ~350); an existing one takes
 * each in its own, as DuckDB refuses to commit a transaction that altered a table holding rows and changed them.
 */
async function applyMigrations(connection: DuckDBConnection, group: Migration[], now: number): Promise<void> {
  let current: Migration | undefined;
  await runInTransaction(
    connection,
    async () => {
      for (current of group) await connection.run(current.sql);
      current = undefined;
      await connection.run(WAREHOUSE_SQL.insertAppliedMigrations(group.length), {
        ...Object.fromEntries(
          group.flatMap((m, i) => [
            [`version_${i}`, m.version],
            [`name_${i}`, m.name],
          ]),
        ),
        applied_at: new Date(now).toISOString(),
      });
    },
    (cause) => migrationFailure(group, current, cause),
  );
}

function migrationFailure(group: Migration[], current: Migration | undefined, cause: unknown): EtlError {
  const failed = current ?? (group.length === 1 ? group[0] : undefined);
  const what =
    failed === undefined
      ? `Creating the warehouse's schema (migrations ${group[0]?.version}–${group.at(-1)?.version})`
      : `Warehouse migration ${failed.version}_${failed.name}`;
  const none = group.length > 1 ? ", so none of the new warehouse's migrations was applied" : '';
  return new EtlError('warehouse.migration_failed', `${what} failed${none}: ${(cause as Error).message}`, {
    cause,
  });
}

/** Applies the migrations not yet recorded; returns the versions applied now. */
export async function runMigrations(
  connection: DuckDBConnection,
  options: { dir?: string; now: () => number; log?: Logger | undefined },
): Promise<number[]> {
  const migrations = readMigrations(options.dir ?? locateMigrationsDir());
  await connection.run(WAREHOUSE_SQL.createSchemaMigrations);
  const reader = await connection.runAndReadAll(WAREHOUSE_SQL.selectAppliedMigrations);
  const applied = new Set(reader.getRowsJS().map((row) => Number(row[0])));
  throwIfNewer(migrations, applied);
  const pending = migrations.filter((m) => !applied.has(m.version));
  const groups = applied.size === 0 ? [pending] : pending.map((migration) => [migration]);
  for (const group of groups) if (group.length > 0) await applyMigrations(connection, group, options.now());
  for (const migration of pending)
    options.log?.debug({ version: migration.version, name: migration.name }, 'warehouse migration applied');
  const done = pending.map((m) => m.version);
  // one line per run that changed the schema, not one per migration
  const version = migrations.at(-1)?.version;
  if (done.length > 0 && version !== undefined) {
    if (applied.size === 0) options.log?.info(`warehouse created (schema version ${version})`);
    else options.log?.info({ applied: done }, `warehouse upgraded to schema version ${version}`);
  }
  return done;
}

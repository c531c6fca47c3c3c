// Exports the warehouse into a Parquet lake: DIR/<table>/project=<p>/date=<yyyy-mm-dd>/data.parquet for the
// tables of events in time, DIR/<table>/project=<p>/data.parquet for the others (Hive partitioning: DuckDB,
// Spark, Trino and ClickHouse read it as is). Incremental: each partition's row count and fingerprint (the
// XOR of its rows' hashes) is kept in the project's manifest; a run rewrites only the partitions whose
// figures changed, and removes those that no longer have rows. Each file is written beside its place and
// renamed over it (readers see the old file or the new one). Projects are separate partitions with separate
// manifests (DIR/_manifests/<project>.json), so warehouses on several machines export into one lake; the
// combined DIR/_manifest.json is rebuilt from them after each run.

import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EtlError } from '../../errors.js';
import { makeDirectory } from '../../files/make-directory.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import { LAKE_TABLES, type LakeTable } from '../lake-tables.js';
import { type LakePartition, partitionsOf, partitionWhere } from '../partitions.js';

export type { LakePartition } from '../partitions.js';

export interface ProjectManifest {
  project: string;
  exportedAt: string;
  /** The project's sync watermark the lake reflects (ISO), or null before the first sync. */
  watermark: string | null;
  tables: Record<string, { columns: { name: string; type: string }[]; partitions: LakePartition[] }>;
}

export interface ExportResult {
  dir: string;
  projects: string[];
  written: string[];
  removed: string[];
  unchanged: number;
  rows: number;
}

const MANIFESTS = '_manifests';

/** Exports every project of the warehouse (or those given) into the lake at `dir`. */
export async function exportParquet(
  warehouse: Warehouse,
  dir: string,
  options: {
    projects?: readonly string[];
    full?: boolean;
    now?: () => number;
    /** The option or setting that named `dir` (--out, REPORTER_LAKE_DIR), for the error when it is unusable. */
    setting?: string;
    /** The tables to export; default: every exported table of the registry (LAKE_TABLES). */
    tables?: readonly LakeTable[];
  } = {},
): Promise<ExportResult> {
  const now = options.now ?? Date.now;
  try {
    makeDirectory(join(dir, MANIFESTS));
  } catch (cause) {
    throw new EtlError(
      'lake.dir_unusable',
      `${options.setting ?? 'the lake folder'}: cannot make the lake's folder ${dir} (${(cause as Error).message}); choose another folder`,
      { kind: 'usage', cause },
    );
  }
  const result: ExportResult = { dir, projects: [], written: [], removed: [], unchanged: 0, rows: 0 };
  await warehouse.hold(async () => {
    const present = await existingTables(warehouse);
    const tables = (options.tables ?? LAKE_TABLES).filter((t) => present.has(t.table));
    const projects = options.projects ?? (await projectsOf(warehouse, tables));
    for (const project of projects) {
      const previous = options.full ? undefined : readManifest(dir, project);
      const manifest: ProjectManifest = {
        project,
        exportedAt: new Date(now()).toISOString(),
        watermark: await watermarkOf(warehouse, project),
        tables: {},
      };
      for (const table of tables) {
        const partitions = await partitionsOf(warehouse, table, project);
        const before = new Map((previous?.tables[table.table]?.partitions ?? []).map((p) => [p.path, p]));
        for (const partition of partitions) {
          const old = before.get(partition.path);
          before.delete(partition.path);
          if (old && old.rows === partition.rows && old.fingerprint === partition.fingerprint) {
            result.unchanged++;
            continue;
          }
          await writePartition(warehouse, dir, table, project, partition);
          result.written.push(partition.path);
          result.rows += partition.rows;
        }
        // partitions whose rows are all gone from the warehouse
        for (const gone of before.keys()) {
          rmSync(join(dir, gone), { recursive: true, force: true });
          result.removed.push(gone);
        }
        manifest.tables[table.table] = { columns: await columnsOf(warehouse, table), partitions };
      }
      writeAtomically(join(dir, MANIFESTS, `${project}.json`), JSON.stringify(manifest, null, 2));
      result.projects.push(project);
    }
  });
  writeAtomically(join(dir, '_manifest.json'), JSON.stringify(combinedManifest(dir), null, 2));
  return result;
}

async function existingTables(warehouse: Warehouse): Promise<Set<string>> {
  const rows = await warehouse.query('SELECT table_name FROM information_schema.tables');
  return new Set(rows.map((r) => String(r['table_name'])));
}

async function projectsOf(warehouse: Warehouse, tables: readonly LakeTable[]): Promise<string[]> {
  const union = tables.map((t) => `SELECT DISTINCT project FROM ${t.table}`).join(' UNION ');
  return (await warehouse.query(`SELECT project FROM (${union}) ORDER BY project`)).map((r) =>
    String(r['project']),
  );
}

async function watermarkOf(warehouse: Warehouse, project: string): Promise<string | null> {
  const at = await warehouse.getWatermark(project);
  return at === undefined ? null : new Date(at).toISOString();
}

async function columnsOf(warehouse: Warehouse, table: LakeTable): Promise<{ name: string; type: string }[]> {
  const rows = await warehouse.query(
    'SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position',
    [table.table],
  );
  return rows
    .map((r) => ({ name: String(r['column_name']), type: String(r['data_type']) }))
    .filter((c) => !table.secretColumns.includes(c.name));
}

/** Writes a partition's rows to a file beside its place, then renames it over data.parquet. */
async function writePartition(
  warehouse: Warehouse,
  dir: string,
  table: LakeTable,
  project: string,
  partition: LakePartition,
): Promise<void> {
  const folder = join(dir, partition.path);
  const temporary = join(folder, `data.parquet.tmp-${process.pid}-${randomUUID().slice(0, 8)}`);
  const where = partitionWhere(table, project, partition);
  try {
    makeDirectory(folder);
    // not *.parquet: a reader's glob never picks up a file being written, or one a killed run left
    for (const name of readdirSync(folder))
      if (name.startsWith('data.parquet.tmp-')) rmSync(join(folder, name), { force: true });
    // the partition columns are the folders' names: the file holds the other columns (Hive layout)
    // written by this process (beside a sync, its bytes come from the sync's read service)
    const excluded = ['project', ...table.secretColumns].map((c) => `"${c}"`).join(', ');
    await warehouse.writeParquet(
      `SELECT * EXCLUDE (${excluded}) FROM ${table.table} WHERE ${where}`,
      temporary,
    );
    renameSync(temporary, join(folder, 'data.parquet'));
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new EtlError(
      'lake.write_failed',
      `cannot write ${folder}/data.parquet: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

function readManifest(dir: string, project: string): ProjectManifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, MANIFESTS, `${project}.json`), 'utf8')) as ProjectManifest;
  } catch {
    return undefined;
  }
}

/** Every project's manifest of the lake, written by this machine or another. */
function combinedManifest(dir: string) {
  const projects = readdirSync(join(dir, MANIFESTS))
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, MANIFESTS, name), 'utf8')) as ProjectManifest);
  return { format: 'reporter-etl parquet lake', version: 1, projects };
}

function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.tmp-${process.pid}`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

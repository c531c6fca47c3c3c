// Exports the warehouse into a Parquet lake: DIR/<table>/project=<p>/date=<yyyy-mm-dd>/data.parquet for the
// tables of events in time, DIR/<table>/project=<p>/data.parquet for the others (Hive partitioning: DuckDB,
// Spark, Trino and ClickHouse read it as is). Incremental: each partition's row count and fingerprint (the
// XOR of its rows' hashes) is kept in the project's manifest; a run rewrites only the partitions whose
// figures changed, and removes those that no longer have rows. Each file is written beside its place and
// renamed over it (readers see the old file or the new one). Projects are separate partitions with separate
// manifests (DIR/_manifests/<project>.json), so warehouses on several machines export into one lake; the
// combined DIR/_manifest.json is rebuilt from them after each run. Invariant: nothing outside DIR is written
// or removed: each path is resolved, links followed, and checked to lie inside DIR (contained-path.ts), and
// every partition a manifest names is checked to be one of its project's before any is removed.

import { randomUUID } from 'node:crypto';
import { readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { EtlError } from '../../errors.js';
import { OutsideFolderError, resolveInside, unsafeSegmentReason } from '../../files/contained-path.js';
import { makeDirectory } from '../../files/make-directory.js';
import { readRegularFile, replaceFile } from '../../files/no-follow-files.js';
import { parseJsonText } from '../../text/parse-json-text.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import { LAKE_TABLES, type LakeTable } from '../lake-tables.js';
import {
  isPartitionPathOf,
  type LakePartition,
  partitionPath,
  partitionsOf,
  partitionWhere,
} from '../partitions.js';

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

/** What the lake's code throws when it would write or remove outside the lake (resolveInside's refusal). */
function outsideLakeError(dir: string, error: OutsideFolderError): EtlError {
  return new EtlError(
    'lake.path_outside',
    `the lake ${dir}: ${error.path}: ${error.reason}; nothing was written or removed there. ` +
      'Remove the link (or the folder it is in) from the lake, then run the export again',
    { cause: error },
  );
}

/** `dir`/`path` checked to lie inside the lake, every link followed (contained-path.ts). */
function inLake(dir: string, path: string): string {
  try {
    return resolveInside(dir, path);
  } catch (error) {
    if (error instanceof OutsideFolderError) throw outsideLakeError(dir, error);
    throw error;
  }
}

/** The manifest file of a project: its name as its partitions' folder has it (one plain file name). */
function manifestPathOf(project: string): string {
  return `${MANIFESTS}/${encodeURIComponent(project)}.json`;
}

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
  for (const project of options.projects ?? []) checkProjectName(project);
  const result: ExportResult = { dir, projects: [], written: [], removed: [], unchanged: 0, rows: 0 };
  await warehouse.hold(async () => {
    const present = await existingTables(warehouse);
    const tables = (options.tables ?? LAKE_TABLES).filter((t) => present.has(t.table));
    const known = await projectsOf(warehouse, tables);
    const projects = options.projects ?? known;
    for (const project of projects) checkProjectKnown(project, known);
    makeLakeFolder(dir, options.setting);
    // every manifest read and checked before anything is written or removed
    const previous = new Map(
      projects.map((p) => [p, options.full ? undefined : readManifest(dir, p, tables)] as const),
    );
    for (const project of projects) {
      const manifest: ProjectManifest = {
        project,
        exportedAt: new Date(now()).toISOString(),
        watermark: await watermarkOf(warehouse, project),
        tables: {},
      };
      for (const table of tables)
        manifest.tables[table.table] = await exportTable(warehouse, dir, table, project, {
          previous: previous.get(project),
          result,
        });
      replaceFile(inLake(dir, manifestPathOf(project)), JSON.stringify(manifest, null, 2));
      result.projects.push(project);
    }
  });
  replaceFile(inLake(dir, '_manifest.json'), JSON.stringify(combinedManifest(dir), null, 2));
  return result;
}

/** Makes the lake's folder and its `_manifests` (inside it, whatever links are in the lake). */
function makeLakeFolder(dir: string, setting: string | undefined): void {
  try {
    makeDirectory(dir);
  } catch (cause) {
    throw new EtlError(
      'lake.dir_unusable',
      `${setting ?? 'the lake folder'}: cannot make the lake's folder ${dir} (${(cause as Error).message}); choose another folder`,
      { kind: 'usage', cause },
    );
  }
  makeDirectory(inLake(dir, MANIFESTS));
}

/** A project named on the command line must be one plain folder name (`--project ../../x` is refused). */
function checkProjectName(project: string): void {
  const reason = unsafeSegmentReason(project);
  if (reason !== undefined)
    throw new EtlError(
      'lake.project_unsafe',
      `--project ${JSON.stringify(project)}: not a project's name (${reason}); nothing was written`,
      { kind: 'usage' },
    );
}

/** A project the warehouse holds no data of is refused: a typo would write an empty manifest. */
function checkProjectKnown(project: string, known: readonly string[]): void {
  if (!known.includes(project))
    throw new EtlError(
      'lake.project_unknown',
      `--project ${JSON.stringify(project)}: the warehouse holds no data of this project (it holds ${known.length > 0 ? known.join(', ') : 'none yet: run reporter-etl sync'}); nothing was written`,
      { kind: 'usage' },
    );
}

/** Writes a table's partitions that changed and removes those whose rows are gone; its manifest entry. */
async function exportTable(
  warehouse: Warehouse,
  dir: string,
  table: LakeTable,
  project: string,
  run: { previous: ProjectManifest | undefined; result: ExportResult },
): Promise<ProjectManifest['tables'][string]> {
  const { result } = run;
  const partitions = await partitionsOf(warehouse, table, project);
  const before = new Map((run.previous?.tables[table.table]?.partitions ?? []).map((p) => [p.path, p]));
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
  // partitions whose rows are all gone from the warehouse (their paths checked when the manifest was read)
  for (const gone of before.keys()) {
    rmSync(inLake(dir, gone), { recursive: true, force: true });
    result.removed.push(gone);
  }
  return { columns: await columnsOf(warehouse, table), partitions };
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
  const folder = inLake(dir, partition.path);
  const temporary = join(folder, `data.parquet.tmp-${process.pid}-${randomUUID().slice(0, 8)}`);
  const where = partitionWhere(table, project, partition);
  try {
    makeDirectory(folder);
    // made through no link out of the lake (one planted meanwhile is found here, before the file is written)
    inLake(dir, partition.path);
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
    if (error instanceof EtlError) throw error;
    throw new EtlError(
      'lake.write_failed',
      `cannot write ${folder}/data.parquet: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * The project's manifest of the last run, or undefined (none, or not JSON: every partition is written again).
 * Every partition it names for `tables` must be one of the project's partition paths: a manifest naming
 * `../x`, an absolute path or another project's partition is refused before anything is removed.
 */
function readManifest(
  dir: string,
  project: string,
  tables: readonly LakeTable[],
): ProjectManifest | undefined {
  const file = inLake(dir, manifestPathOf(project));
  let text: string;
  try {
    text = readRegularFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw invalidManifest(file, `it cannot be read (${(error as Error).message})`);
  }
  let manifest: ProjectManifest;
  try {
    manifest = JSON.parse(text) as ProjectManifest;
  } catch {
    return undefined;
  }
  for (const table of tables) {
    const partitions: unknown = manifest?.tables?.[table.table]?.partitions ?? [];
    if (!Array.isArray(partitions))
      throw invalidManifest(file, `its ${table.table} partitions are not a list`);
    for (const partition of partitions as { path?: unknown }[]) {
      const path = partition?.path;
      if (typeof path !== 'string' || !isPartitionPathOf(path, table.table, project))
        throw invalidManifest(
          file,
          `it names ${JSON.stringify(path)} as a partition of ${table.table}, which is not a partition of project ${JSON.stringify(project)} (${partitionPath(table.table, project, 'yyyy-mm-dd')}, or without the date)`,
        );
    }
  }
  return manifest;
}

function invalidManifest(file: string, why: string): EtlError {
  return new EtlError(
    'lake.manifest_invalid',
    `the lake's manifest ${file}: ${why}; nothing was written or removed. Restore the manifest, or remove it ` +
      '(the next run then writes every partition of the project again and removes none)',
  );
}

/** Every project's manifest of the lake, written by this machine or another (links and non-files refused). */
function combinedManifest(dir: string) {
  const folder = inLake(dir, MANIFESTS);
  const projects = readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const file = join(folder, name);
      try {
        return parseJsonText(readRegularFile(file)) as ProjectManifest;
      } catch (error) {
        throw invalidManifest(file, `it cannot be read (${(error as Error).message})`);
      }
    });
  return { format: 'reporter-etl parquet lake', version: 1, projects };
}

// Job `retention`: deletes what has aged past REPORTER_RETENTION_DAYS: files (by modification time) under
// <REPORTER_DATA_DIR>/reports and <REPORTER_DATA_DIR>/platform-reports, and the rows of every table of the
// registry with a `retainedBy` column (etl_rejects by rejected_at). Nothing else: no folder, no symbolic link
// (nor what it points to), no file outside those two folders.
import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { EXIT } from '../src/errors.js';
import { assertTrustedInDataDir } from '../src/files/trusted-folder.js';
import type { Job, JobResult } from '../src/schedule/job.js';
import { TABLES } from '../src/sources/tables.js';
import { formatSize, plural } from '../src/text/plural.js';
import type { TableSpec } from '../src/warehouse/table-spec.js';

export const RETENTION_FOLDERS = ['reports', 'platform-reports'] as const;

/** The tables the job deletes old rows from, and by which column: derived from the table registry. */
export function selectRetainedTables(specs: readonly TableSpec[]): { table: string; column: string }[] {
  return specs.flatMap((s) => (s.retainedBy === undefined ? [] : [{ table: s.name, column: s.retainedBy }]));
}

const SQL = {
  countOld: ({ table, column }: { table: string; column: string }) =>
    `SELECT count(*) AS n FROM ${table} WHERE ${column} < $cutoff`,
  deleteOld: ({ table, column }: { table: string; column: string }) =>
    `DELETE FROM ${table} WHERE ${column} < $cutoff`,
} as const;

interface DeletedFile {
  path: string;
  bytes: number;
  modifiedAt: string;
}

/** Regular files under `dir` (recursively, never through a symbolic link) modified before `cutoff`. */
async function oldFiles(dir: string, cutoff: number, signal: AbortSignal): Promise<DeletedFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const found: DeletedFile[] = [];
  for (const name of names.sort()) {
    if (signal.aborted) break;
    const path = join(dir, name);
    const stat = await lstat(path);
    if (stat.isDirectory()) found.push(...(await oldFiles(path, cutoff, signal)));
    else if (stat.isFile() && stat.mtimeMs < cutoff)
      found.push({ path, bytes: stat.size, modifiedAt: new Date(stat.mtimeMs).toISOString() });
  }
  return found;
}

export const retentionJob: Job = {
  id: 'retention',
  description:
    'deletes report files (reports/, platform-reports/) and rejected records (etl_rejects) older than REPORTER_RETENTION_DAYS',
  defaultSchedule: '30 3 * * *',
  needsApi: false,
  async run(ctx): Promise<JobResult> {
    const { config } = ctx;
    const cutoff = ctx.now() - config.retentionMs;
    const deleted: DeletedFile[] = [];
    for (const folder of RETENTION_FOLDERS) {
      // a folder another user can write to (or a link to one) is refused, not emptied
      assertTrustedInDataDir(config.dataDir, join(config.dataDir, folder));
      for (const file of await oldFiles(join(config.dataDir, folder), cutoff, ctx.signal)) {
        if (ctx.signal.aborted) break;
        await unlink(file.path);
        deleted.push(file);
        ctx.log.debug({ path: file.path, modifiedAt: file.modifiedAt }, 'deleted an old file');
      }
    }
    const rows = await ctx.useWarehouse(async (w) => {
      const params = { cutoff: new Date(cutoff) };
      const deletedRows: Record<string, number> = {};
      for (const retained of selectRetainedTables(TABLES)) {
        const [row] = await w.query(SQL.countOld(retained), params);
        const n = Number(row?.['n'] ?? 0);
        if (n > 0) await w.query(SQL.deleteOld(retained), params);
        deletedRows[retained.table] = n;
      }
      return deletedRows;
    });
    const rejects = rows['etl_rejects'] ?? 0;
    const others = Object.entries(rows).filter(([table, n]) => table !== 'etl_rejects' && n > 0);
    const bytes = deleted.reduce((sum, f) => sum + f.bytes, 0);
    const days = config.retentionMs / 86_400_000;
    const stopped = ctx.signal.aborted;
    return {
      status: stopped ? 'failed' : 'success',
      summary: `older than ${days} days (before ${new Date(cutoff).toISOString()}): deleted ${plural(deleted.length, 'file')} (${formatSize(bytes)}) from ${RETENTION_FOLDERS.join('/, ')}/ and ${plural(rejects, 'rejected record')}${others.map(([table, n]) => `, ${plural(n, 'row')} of ${table}`).join('')}${stopped ? '; stopped by a signal' : ''}`,
      ...(stopped ? { error: 'stopped by a signal; the next run deletes the rest' } : {}),
      exitCode: stopped ? EXIT.tryLater : EXIT.ok,
      details: { cutoff: new Date(cutoff).toISOString(), files: deleted, rejects, rows },
    };
  },
};

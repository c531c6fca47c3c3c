// Job `export-parquet`: the warehouse into the Parquet lake at REPORTER_LAKE_DIR (src/lake/), every hour at
// :40, after the quarter-hourly syncs; incremental, so a run rewrites the days the syncs touched. Without
// REPORTER_LAKE_DIR the job is off (missingSetting): never scheduled, and `run export-parquet` exits 2.

import { EXIT } from '../src/errors.js';
import { exportParquet } from '../src/lake/export-parquet.js';
import { plural } from '../src/plural.js';
import type { Job, JobResult } from '../src/schedule/job.js';

export const exportParquetJob: Job = {
  id: 'export-parquet',
  description:
    'writes the warehouse into the Parquet lake at REPORTER_LAKE_DIR (the partitions that changed)',
  defaultSchedule: '40 * * * *',
  needsApi: false,
  missingSetting: (config) =>
    config.lakeDir === undefined
      ? { setting: 'REPORTER_LAKE_DIR', meaning: 'the folder of the Parquet lake' }
      : undefined,
  async run(ctx): Promise<JobResult> {
    const dir = ctx.config.lakeDir;
    if (dir === undefined) throw new Error('export-parquet ran without REPORTER_LAKE_DIR (missingSetting)');
    const result = await ctx.useWarehouse((warehouse) =>
      exportParquet(warehouse, dir, { now: ctx.now, setting: 'REPORTER_LAKE_DIR' }),
    );
    return {
      status: 'success',
      summary: `${dir}: ${plural(result.written.length, 'partition')} written (${plural(result.rows, 'row')}), ${result.removed.length} removed, ${result.unchanged} unchanged`,
      exitCode: EXIT.ok,
      details: result,
    };
  },
};

// Job `export-parquet`: the warehouse into the Parquet lake at REPORTER_LAKE_DIR (src/destinations/lake/), every hour at
// :40, after the quarter-hourly syncs; incremental, so a run rewrites the days the syncs touched. Without
// REPORTER_LAKE_DIR the job is off (missingSetting): never scheduled, and `run export-parquet` exits 2.

import { EXIT, UsageError } from '../../errors.js';
import { assertTrustedInDataDir } from '../../files/trusted-folder.js';
import type { SourceJobResult, SourceJobSpec } from '../../sources/source-unit.js';
import { plural } from '../../text/plural.js';

export const exportParquetJob: SourceJobSpec = {
  id: 'export-parquet',
  describe: 'writes the warehouse into the Parquet lake at REPORTER_LAKE_DIR (the partitions that changed)',
  defaultSchedule: '40 * * * *',
  needsApi: false,
  missingSetting: (config) =>
    config.lakeDir === undefined
      ? { setting: 'REPORTER_LAKE_DIR', meaning: 'the folder of the Parquet lake' }
      : undefined,
  async run(ctx): Promise<SourceJobResult> {
    const dir = ctx.config.lakeDir;
    if (dir === undefined)
      throw new UsageError(
        'REPORTER_LAKE_DIR: is not set (the folder of the Parquet lake)',
        'config.missing',
      );
    assertTrustedInDataDir(ctx.config.dataDir, dir);
    // loaded when it runs: the unit (and the registries above it) stays cheap to import
    const { exportParquet } = await import('./export-parquet.js');
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

// The Parquet lake as a destination unit: it reads every exported table of the registry, keeps its cursor
// in the manifests (DIR/_manifests/<project>.json: each partition's row count and fingerprint) and offers the
// `export-parquet` job. The `export parquet` command is src/cli/commands/export.ts.

import { defineSettings, selectErrorCodes } from '../../settings/define-settings.js';
import { exportedTables } from '../../warehouse/table-spec.js';
import type { DestinationUnit } from '../destination-unit.js';
import { exportParquetJob } from './export-parquet-job.js';

export const lakeDestination: DestinationUnit = {
  id: 'lake',
  describe: 'the Parquet lake: the exported tables as Hive-partitioned files, for DuckDB, Spark, Trino',
  settings: defineSettings({ REPORTER_LAKE_DIR: { describe: 'the folder of the Parquet lake' } }),
  reads: exportedTables,
  cursor: "the manifests DIR/_manifests/<project>.json (each partition's rows and fingerprint)",
  missingSetting: (config) =>
    config.lakeDir === undefined
      ? { setting: 'REPORTER_LAKE_DIR', meaning: 'the folder of the Parquet lake' }
      : undefined,
  errorCodes: selectErrorCodes('lake.', 'export.'),
  jobs: [exportParquetJob],
};

// ClickHouse as a destination unit: it reads every exported table of the registry (keyed by its TableSpec
// key), keeps its cursor in etl_state (key clickhouse:<table>: the partitions sent) and has no job of its
// own: the `sync` job and `export clickhouse` send to it. Its password is a secret.

import { defineSettings, selectErrorCodes } from '../../settings/define-settings.js';
import { exportedTables } from '../../warehouse/table-spec.js';
import type { DestinationUnit } from '../destination-unit.js';

export const clickHouseDestination: DestinationUnit = {
  id: 'clickhouse',
  describe: "ClickHouse: the exported tables as ReplacingMergeTree tables, with the statistics' views",
  settings: defineSettings({
    REPORTER_CLICKHOUSE_URL: { describe: "ClickHouse's HTTP interface" },
    REPORTER_CLICKHOUSE_USER: { describe: 'the ClickHouse user' },
    REPORTER_CLICKHOUSE_PASSWORD: {
      describe: "the ClickHouse user's password",
      secret: (config) => [config.clickhouse?.password || undefined],
    },
    REPORTER_CLICKHOUSE_DATABASE: { describe: 'the ClickHouse database' },
  }),
  reads: exportedTables,
  cursor: 'etl_state (project <p>, key clickhouse:<table>): the partitions sent and their fingerprints',
  missingSetting: (config) =>
    config.clickhouse === undefined
      ? { setting: 'REPORTER_CLICKHOUSE_URL', meaning: "ClickHouse's HTTP interface" }
      : undefined,
  errorCodes: selectErrorCodes('clickhouse.'),
  jobs: [],
};

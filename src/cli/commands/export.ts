// `reporter-etl export parquet`: the warehouse as a Hive-partitioned Parquet lake (src/destinations/lake/), incremental.
import { resolve } from 'node:path';
import { type Config, loadConfig } from '../../config.js';
import { createClickHouse } from '../../destinations/clickhouse/clickhouse-http.js';
import { exportClickHouse } from '../../destinations/clickhouse/export-clickhouse.js';
import { exportParquet } from '../../destinations/lake/export-parquet.js';
import { EtlError, UsageError } from '../../errors.js';
import { assertTrustedInDataDir } from '../../files/trusted-folder.js';
import { withConfiguredWarehouse } from '../../manage/use-warehouse.js';
import { plural } from '../../text/plural.js';
import { parseCommandArgs } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { requireWarehouse } from '../require-warehouse.js';

const HELP = `reporter-etl export parquet --out DIR [--project NAME] [--full] [--json]
reporter-etl export clickhouse [--project NAME] [--full] [--json]

Writes the warehouse's data tables as a Parquet lake that DuckDB, Spark, Trino, ClickHouse or pandas read as
is (Hive partitioning):
  DIR/<table>/project=<name>/date=<yyyy-mm-dd>/data.parquet   sessions, messages, message_labels,
        message_status_history, chatapi_messages, chatapi_unread_counts (by the UTC date of their time)
  DIR/<table>/project=<name>/data.parquet                     the others (labels, session data, clients,
        experiments, catalogues)
  DIR/_manifest.json      every project's tables, columns and types, partitions with row counts, and the
                          sync watermark each reflects (DIR/_manifests/<project>.json, one per project)

Incremental: a run rewrites only the partitions whose rows changed since the last one (their count and a
fingerprint of their rows, kept in the manifest), and removes those whose rows are gone. Each file is
written beside its place and renamed over it: a reader sees the old partition or the new one, never half.
Projects are separate partitions with separate manifests: warehouses on several machines export into one
lake. It reads the warehouse (beside a running sync, like stats).

ClickHouse: the same tables replicated into ClickHouse over its HTTP interface (REPORTER_CLICKHOUSE_URL,
_USER, _PASSWORD, _DATABASE), created on first use as ReplacingMergeTree tables keyed like the warehouse.
A partition that changed is sent again whole with a new _version, and its older rows deleted, so after
SELECT … FINAL the rows equal the warehouse's; what was sent is kept in etl_state (a run killed midway
sends those partitions again). The sync job runs it after each sync when REPORTER_CLICKHOUSE_URL is set.

Options:
  --out DIR        the lake (created when missing)
  --project NAME   only this project (default: every project in the warehouse); a project the warehouse
                   holds no data of, or a name that is not a plain folder name (../x), is refused (exit 2)
  --full           rewrite every partition
  --json           the result as JSON (partitions written and removed, rows)

Nothing outside the lake is written or removed: every path is checked to lie inside it, links followed; a
manifest naming a path that is not one of its project's partitions, or a link leading out of the lake, stops
the run before anything is removed through it (exit 1; docs/parquet-lake.md says how to recover).

Exit codes: 0 ok, 1 a file could not be written, or the lake holds a forged manifest entry or a link out of
it, 2 usage (no --out, no warehouse, a --project refused), 75 the warehouse was locked too long.

Examples:
  reporter-etl export parquet --out /data/lake
  duckdb -c "select project, date, count(*) from read_parquet('/data/lake/messages/**/*.parquet', hive_partitioning = true) group by all"
`;

export const exportCommand: Command = {
  name: 'export',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        out: { type: 'string' },
        project: { type: 'string' },
        full: { type: 'boolean' },
        json: { type: 'boolean' },
      },
      'allow',
    );
    const target = positionals[0];
    if (target !== 'parquet' && target !== 'clickhouse')
      throw new UsageError(
        target === undefined
          ? 'name what to export: reporter-etl export parquet --out DIR, or reporter-etl export clickhouse'
          : `export ${target}: unknown target (known: parquet, clickhouse)`,
      );
    const config = loadConfig(process.env, { requireToken: false });
    if (target === 'clickhouse') return exportToClickHouse(config, values, io);
    if (!values.out) throw new UsageError('--out DIR: where the lake is (created when missing)');
    requireWarehouse(config, 'export');
    const log = createCommandLogger(config);
    const dir = resolve(values.out);
    assertTrustedInDataDir(config.dataDir, dir);
    const result = await withConfiguredWarehouse(config, 'read', log, (warehouse) =>
      exportParquet(warehouse, dir, {
        ...(values.project ? { projects: [values.project] } : {}),
        ...(values.full ? { full: true } : {}),
        setting: '--out',
      }),
    );
    if (values.json) io.out(JSON.stringify(result, null, 2));
    else
      io.out(
        `${dir}: ${plural(result.projects.length, 'project')} · ${plural(result.written.length, 'partition')} written (${plural(result.rows, 'row')}) · ${result.removed.length} removed · ${result.unchanged} unchanged`,
      );
    return 0;
  },
};

async function exportToClickHouse(
  config: Config,
  values: { project?: string | undefined; full?: boolean | undefined; json?: boolean | undefined },
  io: CommandIo,
): Promise<number> {
  if (!config.clickhouse)
    throw new EtlError(
      'clickhouse.not_configured',
      'REPORTER_CLICKHOUSE_URL: is not set; give the HTTP interface of your ClickHouse (http://host:8123)',
      { kind: 'usage' },
    );
  requireWarehouse(config, 'export');
  const log = createCommandLogger(config);
  const clickhouse = createClickHouse(config.clickhouse);
  try {
    const result = await withConfiguredWarehouse(config, 'write', log, (warehouse) =>
      exportClickHouse(warehouse, clickhouse, {
        ...(values.project ? { projects: [values.project] } : {}),
        ...(values.full ? { full: true } : {}),
      }),
    );
    if (values.json) io.out(JSON.stringify(result, null, 2));
    else
      io.out(
        `ClickHouse ${config.clickhouse.database}: ${plural(result.projects.length, 'project')} · ${plural(result.sent.length, 'partition')} sent (${plural(result.rows, 'row')}) · ${result.removed.length} removed · ${result.unchanged} unchanged`,
      );
    return 0;
  } finally {
    await clickhouse.close();
  }
}

// `reporter-etl kb sync`: one dated snapshot of the knowledge base project of REPORTER_KB_KEY into the
// warehouse (src/sources/kb/sync-kb.ts; what the kb-sync job does), then what it holds, as lines or --json.
import { CONFIG_DEFAULTS as D, loadConfig } from '../../config.js';
import { withConfiguredWarehouse } from '../../manage/use-warehouse.js';
import { requireKbKey } from '../../platform/kb/kb-client.js';
import { syncKb } from '../../sources/kb/sync-kb.js';
import { plural } from '../../text/plural.js';
import { parseCommandArgs } from '../args.js';
import type { CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { requireDataDir } from '../require-warehouse.js';
import type { KbSubcommand } from './kb.js';

const HELP = `reporter-etl kb sync [--json]

Takes one snapshot of the knowledge base project that REPORTER_KB_KEY reaches and stores it in the
warehouse, dated, in one transaction: the project and its settings (kb_snapshots: models, rpmLimit, the
settings as JSON), its sources with their indexing status and last error (kb_sources), integrations with
their last successful sync (kb_integrations), segments with their source counts (kb_segments); with
REPORTER_KB_ADMIN_KEY also the project's API keys (kb_api_keys: name, status, expiry, last use; never the
key itself) and access groups (kb_access_groups). Without the administrative key those two are skipped, with
a note, and the run still succeeds. Snapshots are never updated: each run adds one, so "which sources failed
since yesterday" is a comparison of two snapshots (docs/kb.md has the SQL; \`report kb-health\` shows it).
A record that does not fit the contract is quarantined in etl_rejects (run_id = the snapshot id) with the
reason, and the rest is stored (exit 3). Any failure (a key refused or expired mid-run, the service
unavailable after REPORTER_RETRIES retries) stores no snapshot at all: the run is recorded in etl_runs (job
kb-sync, project kb:<project name>) with its error.

Options:
  --json   the snapshot's summary as JSON on stdout (snapshotId, project, sources by status, counts, notes)

Configuration: REPORTER_KB_KEY (required: the project key, sent as Authorization: Bearer; never printed or
stored), REPORTER_KB_BASE_URL (default ${D.REPORTER_KB_BASE_URL}; operations under /api/knowledge-hub),
REPORTER_KB_ADMIN_KEY (optional), REPORTER_TIMEOUT_MS, REPORTER_RETRIES, REPORTER_DATA_DIR (${D.REPORTER_DATA_DIR}).
The job kb-sync (reporter-etl schedule) does the same every hour.

Exit codes: 0 ok, 1 failed (a key refused), 2 configuration (no REPORTER_KB_KEY), 3 some records
quarantined, 75 try again later (the service unavailable, Retry-After too long, the warehouse locked).

Examples (against the emulator: reporter-etl emulator):
  REPORTER_KB_BASE_URL=http://127.0.0.1:4010/kb REPORTER_KB_KEY=emulator-kb-project-key \\
    REPORTER_KB_ADMIN_KEY=emulator-kb-admin-key reporter-etl kb sync
  reporter-etl sql "select status, count(*) from kb_sources where snapshot_id =
    (select max(snapshot_id) from kb_snapshots) group by 1"
  reporter-etl report kb-health
`;

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values } = parseCommandArgs(argv, { json: { type: 'boolean' } });
  const config = loadConfig(process.env, { requireToken: false });
  requireKbKey(config.kb); // before the data folder: a command refused for its configuration creates nothing
  requireDataDir(config);
  const log = createCommandLogger(config);
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const summary = await withConfiguredWarehouse(config, 'write', log, (warehouse) =>
      syncKb({ config, warehouse, log, signal: io.signal ?? controller.signal }),
    );
    if (values.json) io.out(JSON.stringify(summary, null, 2));
    else {
      const p = summary.project;
      if (summary.status === 'failed') io.err(`kb sync failed, no snapshot stored: ${summary.error}`);
      else {
        io.out(
          `Knowledge base project ${p?.name} (id ${p?.id}): snapshot ${summary.snapshotId} taken at ${summary.takenAt}`,
        );
        const byStatus = Object.entries(summary.sourcesByStatus)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([status, n]) => `${status} ${n}`)
          .join(', ');
        io.out(`  ${plural(summary.sources, 'source')}${byStatus ? ` (${byStatus})` : ''}`);
        io.out(
          `  ${plural(summary.integrations, 'integration')} · ${plural(summary.segments, 'segment')} · ` +
            `API keys ${summary.apiKeys ?? 'skipped'} · access groups ${summary.accessGroups ?? 'skipped'}`,
        );
        if (summary.rejects > 0)
          io.out(
            `  ${plural(summary.rejects, 'record')} quarantined in etl_rejects (run_id ${summary.snapshotId})`,
          );
      }
      for (const note of summary.notes) io.err(`note: ${note}`);
    }
    return summary.exitCode;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

export const kbSyncSubcommand: KbSubcommand = {
  name: 'sync',
  summary: 'one dated snapshot of the knowledge base project into the warehouse',
  help: HELP,
  run,
};

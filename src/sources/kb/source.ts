// The knowledge base service as a source unit: its keys (secrets), its snapshot and eval tables, error codes,
// the `kb-sync` job and run (one dated snapshot). The `kb` command (sync, eval) is src/cli/commands/kb.ts,
// listed by the CLI itself.
import { defineSettings, selectErrorCodes } from '../../settings/define-settings.js';
import type { SourceUnit } from '../source-unit.js';
import { kbSyncJob } from './kb-sync-job.js';
import { KB_TABLES } from './tables.js';

export const kbSource: SourceUnit = {
  id: 'kb',
  describe: 'the knowledge base service: dated snapshots of its project, and the runs of kb eval',
  settings: defineSettings({
    REPORTER_KB_BASE_URL: { describe: 'the knowledge base service' },
    REPORTER_KB_KEY: { describe: 'the project key', secret: (config) => [config.kb.key] },
    REPORTER_KB_ADMIN_KEY: {
      describe: 'the administrative key (API keys and access groups)',
      secret: (config) => [config.kb.adminKey],
    },
  }),
  tables: KB_TABLES,
  errorCodes: selectErrorCodes('kb.'),
  jobs: [kbSyncJob],
  commands: [],
  async run(ctx) {
    const { syncKb } = await import('./sync-kb.js');
    const summary = await syncKb(ctx);
    return { status: summary.status, summary: summary.error ?? `snapshot ${summary.snapshotId}` };
  },
};

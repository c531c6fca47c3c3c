// Job `kb-sync`: one dated snapshot of the knowledge base project of REPORTER_KB_KEY (src/sources/kb/sync-kb.ts),
// every hour at :50. Without REPORTER_KB_KEY the job is off (missingSetting): never scheduled, and
// `run kb-sync` exits 2 naming the setting. It records its own etl_runs row (project kb:<project>).
import { plural } from '../../text/plural.js';
import type { SourceJobResult, SourceJobSpec } from '../source-unit.js';

export const kbSyncJob: SourceJobSpec = {
  id: 'kb-sync',
  describe:
    'stores a dated snapshot of the knowledge base project of REPORTER_KB_KEY (sources, integrations, keys)',
  defaultSchedule: '50 * * * *',
  needsApi: false,
  recordsOwnRuns: true,
  missingSetting: (config) =>
    config.kb.key === undefined
      ? { setting: 'REPORTER_KB_KEY', meaning: 'the knowledge base project key' }
      : undefined,
  async run(ctx): Promise<SourceJobResult> {
    const { config } = ctx;
    // loaded when it runs: the unit (and the registries above it) stays cheap to import
    const { syncKb } = await import('./sync-kb.js');
    const summary = await ctx.useWarehouse((warehouse) =>
      syncKb({ config, warehouse, log: ctx.log, now: ctx.now, signal: ctx.signal, trigger: ctx.trigger }),
    );
    const what =
      summary.status === 'failed'
        ? `no snapshot: ${summary.error}`
        : `snapshot ${summary.snapshotId} of ${summary.project?.name}: ${plural(summary.sources, 'source')}, ${plural(summary.integrations, 'integration')}, ${plural(summary.segments, 'segment')}${summary.rejects > 0 ? `, ${plural(summary.rejects, 'record')} quarantined` : ''}${summary.notes.length > 0 ? ` (${summary.notes.join('; ')})` : ''}`;
    return {
      status: summary.status,
      summary: what,
      ...(summary.error === null ? {} : { error: summary.error }),
      exitCode: summary.exitCode,
      details: summary,
      recordedRunIds: [summary.snapshotId],
    };
  },
};

// Job `sync`: the incremental sync of every configured project (what `reporter-etl sync` does), every 15
// minutes. It records its own etl_runs rows, one per project, with job "sync" and the run's trigger; a project
// whose sync failed before its row existed (unreachable API, refused token) gets a failed row here. Then the
// alert rules (REPORTER_ALERTS) are evaluated over the projects synced; their changes go into the run's notification.
// A run whose every project another sync's lease refused stops there (no channels, ClickHouse or alerts).
// Each step's implementation (the readers, undici, ClickHouse) is imported when the step runs, not with the job.

import type { Config } from '../src/config.js';
import type { ClickHouseExportResult } from '../src/destinations/clickhouse/export-clickhouse.js';
import { EtlError, EXIT, UsageError } from '../src/errors.js';
import type { Job, JobContext, JobResult } from '../src/schedule/job.js';
import type { AlertChange } from '../src/settings/alert-rules.js';
import type { ChatApiHistorySummary } from '../src/sources/chatapi/sync-chatapi-history.js';
import type { SyncSummary } from '../src/sources/reporter/run-sync.js';
import { plural } from '../src/text/plural.js';
import { hasRun, insertFinishedRun } from '../src/warehouse/run-history.js';
import type { Warehouse } from '../src/warehouse/warehouse.js';

function describe(s: SyncSummary): string {
  return `${s.project}: ${s.status} · ${plural(s.windows, 'window')} · ${plural(s.sessions, 'session')} · ${plural(s.messages, 'message')} · ${plural(s.requests, 'request')} · ${s.rejects} rejected`;
}

/** What one run of the job did inside the warehouse: the projects, then the channels, ClickHouse and alerts. */
interface SyncJobOutcome {
  summaries: SyncSummary[];
  channels: ChatApiHistorySummary[];
  replicated?: ClickHouseExportResult;
  replicationError?: EtlError;
  alerts: AlertChange[];
}

export const syncJob: Job = {
  id: 'sync',
  description: 'incremental sync of every configured project into the warehouse',
  defaultSchedule: '*/15 * * * *',
  needsApi: true,
  recordsOwnRuns: true,
  async run(ctx): Promise<JobResult> {
    if (ctx.config.projects.length === 0)
      throw new UsageError(
        'REPORTER_TOKEN: is required by the sync job (or REPORTER_CONFIG with "projects")',
      );
    // the warehouse stays open for the whole sync: its windows commit one after another
    const outcome = await ctx.useWarehouse((warehouse) => runSyncSteps(ctx, warehouse));
    return describeOutcome(ctx.config.projects.length, outcome);
  },
};

/** The projects, then the Chat API channels, the ClickHouse destination and the alert rules. */
async function runSyncSteps(ctx: JobContext, warehouse: Warehouse): Promise<SyncJobOutcome> {
  const { config } = ctx;
  const [{ syncProjects }, { syncChatApiHistory }] = await Promise.all([
    import('../src/sources/reporter/sync-projects.js'),
    import('../src/sources/chatapi/sync-chatapi-history.js'),
  ]);
  const synced = await syncProjects(
    { config, warehouse, log: ctx.log, now: ctx.now, signal: ctx.signal },
    {
      projects: config.projects,
      options: { trigger: ctx.trigger, job: 'sync' },
      skipProjectsAfterSignal: true,
      afterProject: (summary, startedAt) => recordRunWithoutRow(ctx, warehouse, summary, startedAt),
      // then the Chat API channels' history, bounded by the Reporter data just stored
      ...(config.chatApi.channels.length > 0
        ? {
            followUp: (refusedProjects: string[]) =>
              syncChatApiHistory({
                config,
                warehouse,
                log: ctx.log,
                now: ctx.now,
                signal: ctx.signal,
                trigger: ctx.trigger,
                refusedProjects,
              }),
          }
        : {}),
      // a sync refused by the lease of another sync of each of its projects does no work: that one does it
      followUpAfterAllRefused: false,
    },
  );
  const outcome: SyncJobOutcome = { summaries: synced.summaries, channels: synced.followUps, alerts: [] };
  if (synced.allRefused) return outcome;
  // then the ClickHouse destination, when there is one: what the syncs changed
  if (!ctx.signal.aborted && config.clickhouse)
    Object.assign(outcome, await replicateToClickHouse(ctx, warehouse, config.clickhouse));
  // then the alert rules over the projects just synced (REPORTER_ALERTS): a failed alert check never fails the sync
  outcome.alerts.push(...(await evaluateSyncAlerts(ctx, warehouse, synced.summaries)));
  return outcome;
}

/** A project whose sync failed before its row existed (unreachable API, refused token) gets a failed row here. */
async function recordRunWithoutRow(
  ctx: JobContext,
  warehouse: Warehouse,
  summary: SyncSummary,
  startedAt: number,
): Promise<void> {
  if (await hasRun(warehouse, summary.runId)) return;
  await insertFinishedRun(warehouse, {
    runId: summary.runId,
    project: summary.project,
    job: 'sync',
    trigger: ctx.trigger,
    startedAt,
    finishedAt: ctx.now(),
    status: summary.status,
    error: summary.error,
  });
}

/** Exports what the syncs changed to ClickHouse; its failure (an EtlError) is reported, not thrown. */
async function replicateToClickHouse(
  ctx: JobContext,
  warehouse: Warehouse,
  settings: NonNullable<Config['clickhouse']>,
): Promise<Pick<SyncJobOutcome, 'replicated' | 'replicationError'>> {
  const [{ createClickHouse }, { exportClickHouse }] = await Promise.all([
    import('../src/destinations/clickhouse/clickhouse-http.js'),
    import('../src/destinations/clickhouse/export-clickhouse.js'),
  ]);
  const clickhouse = createClickHouse(settings);
  try {
    return { replicated: await exportClickHouse(warehouse, clickhouse, { now: ctx.now }) };
  } catch (error) {
    if (!(error instanceof EtlError)) throw error;
    ctx.log.error({ code: error.code }, error.message);
    return { replicationError: error };
  } finally {
    await clickhouse.close();
  }
}

/** The alert rules over the projects that did not fail; a failed check is logged and gives no changes. */
async function evaluateSyncAlerts(
  ctx: JobContext,
  warehouse: Warehouse,
  done: SyncSummary[],
): Promise<AlertChange[]> {
  const { config } = ctx;
  const synced = done.filter((s) => s.status !== 'failed').map((s) => s.project);
  if (ctx.signal.aborted || config.alerts.length === 0 || synced.length === 0) return [];
  const alerts: AlertChange[] = [];
  try {
    const { evaluateAlerts } = await import('../src/analysis/alerts/evaluate-alerts.js');
    alerts.push(
      ...(await evaluateAlerts({
        warehouse,
        rules: config.alerts,
        projects: synced,
        now: ctx.now(),
        timeZone: config.timeZone,
        runId: done[0]?.runId ?? ctx.runId,
      })),
    );
  } catch (error) {
    ctx.log.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'alert rules not evaluated',
    );
  }
  for (const alert of alerts) ctx.log.warn({ alert }, `alert ${alert.state}: ${alert.message}`);
  return alerts;
}

/** The job's result: its status, one line per project, channel and destination, and its exit code. */
function describeOutcome(projectCount: number, outcome: SyncJobOutcome): JobResult {
  const { summaries, channels, replicated, replicationError, alerts } = outcome;
  const failedChannel = channels.find((c) => c.status === 'failed');
  const failed =
    summaries.find((s) => s.status === 'failed') ??
    failedChannel ??
    (replicationError && {
      error: `ClickHouse: ${replicationError.message}`,
      exitCode: replicationError.exitCode,
    });
  const skipped = projectCount - summaries.length;
  const status =
    failed || skipped > 0
      ? 'failed'
      : [...summaries, ...channels].some((s) => s.status === 'partial')
        ? 'partial'
        : 'success';
  const lines = [
    ...summaries.map(describe),
    ...channels.map(
      (c) =>
        `Chat API ${c.channel}: ${c.status} · ${plural(c.clients, 'client')} · ${plural(c.messages, 'message')} · ${c.rejects} rejected${c.error ? ` · ${c.error}` : ''}`,
    ),
  ];
  if (skipped > 0) lines.push(`${plural(skipped, 'project')} not synced: stopped by a signal`);
  if (replicated)
    lines.push(
      `ClickHouse: ${plural(replicated.sent.length, 'partition')} sent (${plural(replicated.rows, 'row')}), ${replicated.removed.length} removed`,
    );
  if (replicationError) lines.push(`ClickHouse: failed · ${replicationError.message}`);
  for (const alert of alerts) lines.push(`alert ${alert.state}: ${alert.message}`);
  return {
    status,
    summary: lines.join('; '),
    ...(status === 'failed'
      ? { error: failed?.error ?? 'stopped by a signal before every project was synced' }
      : {}),
    exitCode: failed
      ? failed.exitCode
      : skipped > 0
        ? EXIT.tryLater
        : status === 'partial'
          ? EXIT.partial
          : EXIT.ok,
    details: {
      runs: summaries,
      ...(channels.length > 0 ? { chatApi: channels } : {}),
      ...(replicated ? { clickhouse: replicated } : {}),
    },
    recordedRunIds: summaries.map((s) => s.runId),
    ...(alerts.length > 0 ? { alerts } : {}),
  };
}

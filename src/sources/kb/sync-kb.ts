// `kb sync` and the kb-sync job: one dated snapshot of the knowledge base project of REPORTER_KB_KEY (its
// settings, sources, integrations and segments; with REPORTER_KB_ADMIN_KEY its API keys' metadata and
// access groups), read whole, then written as one commitBatch (one transaction, its rejects with it) under
// its etl_runs row (project `kb:<project name>`, job kb-sync). Invariants: a run that fails anywhere (a key refused or expired, the
// service unavailable, a stop) writes no snapshot rows at all; invalid records go to etl_rejects with the
// reason; no key value is ever written or logged.
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.js';
import { EtlError, EXIT } from '../../errors.js';
import type { Logger } from '../../log.js';
import {
  createKbClient,
  type KbClient,
  type KbClientOptions,
  type KbReject,
} from '../../platform/kb/kb-client.js';
import { kbIdForJson, stringifyKbJson } from '../../platform/kb/kb-json.js';
import type {
  KbAccessGroup,
  KbApiKey,
  KbId,
  KbIntegration,
  KbProject,
  KbSegment,
  KbSettings,
  KbSource,
} from '../../platform/kb/kb-schemas.js';
import { makeRunId } from '../../warehouse/run-history.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import {
  describeKbSnapshotBatch,
  type KbAccessGroupRow,
  type KbApiKeyRow,
  type KbIntegrationRow,
  type KbRejectRow,
  type KbSegmentRow,
  type KbSnapshotRow,
  type KbSourceRow,
} from './kb-snapshot-sql.js';

/** The job name of its etl_runs rows (the scheduled job has the same id). */
export const KB_SYNC_JOB = 'kb-sync';

/** etl_runs.project of a knowledge base project's runs. */
export function kbRunProject(projectName: string | undefined): string {
  return projectName === undefined ? 'kb' : `kb:${projectName}`;
}

export interface KbSyncSummary {
  /** Its row in etl_runs; kb_snapshots.snapshot_id of the snapshot it wrote. */
  snapshotId: string;
  status: 'success' | 'partial' | 'failed';
  takenAt: string;
  /** The project; an id beyond 2^53 as the string of its digits (kb-json.ts). */
  project: { id: number | string; name: string } | null;
  sources: number;
  /** Sources by status, as the service named them (an unknown status kept as it came). */
  sourcesByStatus: Record<string, number>;
  integrations: number;
  segments: number;
  /** null: skipped (no REPORTER_KB_ADMIN_KEY). */
  apiKeys: number | null;
  accessGroups: number | null;
  rejects: number;
  requests: number;
  /** Why parts were skipped (no administrative key), for people. */
  notes: string[];
  error: string | null;
  errorCode: string | null;
  exitCode: number;
}

export interface KbSyncContext {
  config: Config;
  warehouse: Warehouse;
  log: Logger;
  now?: () => number;
  signal?: AbortSignal;
  trigger?: string;
  /** Client knobs (tests make the backoff small). */
  client?: Omit<KbClientOptions, 'config' | 'log'>;
}

const ADMIN_SKIPPED =
  'REPORTER_KB_ADMIN_KEY is not set: API keys and access groups are not in this snapshot (kb_api_keys and kb_access_groups have no rows for it)';

/**
 * Takes one snapshot. Throws kb.not_configured (usage) and errors that are not EtlErrors (bugs, after
 * recording the run as failed); every other failure is in the summary.
 */
export async function syncKb(ctx: KbSyncContext): Promise<KbSyncSummary> {
  const now = ctx.now ?? Date.now;
  const started = now();
  const snapshotId = makeRunId(started, randomUUID());
  const client = createKbClient({
    config: ctx.config.kb,
    concurrency: ctx.config.concurrency,
    retries: ctx.config.retries,
    timeoutMs: ctx.config.timeoutMs,
    log: ctx.log,
    ...ctx.client,
  });
  const log = ctx.log.child({ job: KB_SYNC_JOB, runId: snapshotId });
  const summary: KbSyncSummary = {
    snapshotId,
    status: 'success',
    takenAt: new Date(started).toISOString(),
    project: null,
    sources: 0,
    sourcesByStatus: {},
    integrations: 0,
    segments: 0,
    apiKeys: null,
    accessGroups: null,
    rejects: 0,
    requests: 0,
    notes: client.hasAdminKey ? [] : [ADMIN_SKIPPED],
    error: null,
    errorCode: null,
    exitCode: EXIT.ok,
  };
  let runStarted = false;
  let unexpected: unknown;
  try {
    // the project first: its name is the run's project in etl_runs
    const project = await client.info();
    summary.project = { id: kbIdForJson(project.id), name: project.name };
    await ctx.warehouse.startRun({
      runId: snapshotId,
      project: kbRunProject(project.name),
      job: KB_SYNC_JOB,
      trigger: ctx.trigger ?? 'manual',
      exclusive: true,
    });
    runStarted = true;
    const read = await readProject(client, project, ctx.signal);
    const rows = toRows(read, {
      snapshotId,
      takenAt: started,
      baseUrl: ctx.config.kb.baseUrl,
      withAdmin: client.hasAdminKey,
    });
    stopIfAsked(ctx.signal);
    await ctx.warehouse.commitBatch(
      describeKbSnapshotBatch({ ...rows, runProject: kbRunProject(project.name) }),
    );
    summary.sources = rows.sources.length;
    for (const s of rows.sources)
      summary.sourcesByStatus[s.status] = (summary.sourcesByStatus[s.status] ?? 0) + 1;
    summary.integrations = rows.integrations.length;
    summary.segments = rows.segments.length;
    summary.apiKeys = rows.row.api_keys;
    summary.accessGroups = rows.row.access_groups;
    summary.rejects = rows.rejects.length;
    if (summary.rejects > 0) {
      summary.status = 'partial';
      summary.exitCode = EXIT.partial;
      log.warn(
        { rejects: summary.rejects },
        `${summary.rejects} knowledge base record(s) did not fit the contract: quarantined in etl_rejects (run_id ${snapshotId})`,
      );
    }
  } catch (error) {
    if (error instanceof EtlError && error.code === 'kb.not_configured' && error.kind === 'usage')
      throw error;
    // an unexpected error (a bug, not the service) fails the run too: its etl_runs row is finished below,
    // never left `running`, and the error goes on to the caller, which prints it
    summary.status = 'failed';
    summary.error = error instanceof Error ? error.message : String(error);
    summary.errorCode = error instanceof EtlError ? error.code : null;
    summary.exitCode = error instanceof EtlError ? error.exitCode : EXIT.failed;
    log.error({ code: summary.errorCode }, `kb sync failed, no snapshot written: ${summary.error}`);
    if (!(error instanceof EtlError)) unexpected = error;
  } finally {
    summary.requests = client.requests;
    await client.close();
    // a run that failed before its project was known is recorded too (project `kb`)
    if (!runStarted)
      await ctx.warehouse
        .startRun({
          runId: snapshotId,
          project: kbRunProject(summary.project?.name),
          job: KB_SYNC_JOB,
          trigger: ctx.trigger ?? 'manual',
        })
        .then(() => (runStarted = true))
        .catch((error: unknown) => log.warn({ err: error }, 'could not record the knowledge base run'));
    if (runStarted)
      await ctx.warehouse
        .finishRun(snapshotId, {
          status: summary.status,
          error: summary.error,
          durationMs: now() - started,
          requests: summary.requests,
        })
        .catch((error: unknown) =>
          log.warn({ err: error }, 'could not record the end of the knowledge base run'),
        );
  }
  if (unexpected !== undefined) throw unexpected;
  return summary;
}

function stopIfAsked(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new EtlError('job.interrupted', 'stopped by a signal before the snapshot was written', {
      kind: 'transient',
    });
}

interface ProjectRead {
  project: KbProject;
  settings: KbSettings;
  sources: KbSource[];
  integrations: KbIntegration[];
  segments: KbSegment[];
  apiKeys: KbApiKey[] | null;
  accessGroups: KbAccessGroup[] | null;
  rejects: KbReject[];
}

/** Reads every part, one after the other (a few requests; a failure stops the run before anything is written). */
async function readProject(
  client: KbClient,
  project: KbProject,
  signal: AbortSignal | undefined,
): Promise<ProjectRead> {
  const rejects: KbReject[] = [];
  const take = <T>(list: { records: T[]; rejects: KbReject[] }): T[] => {
    rejects.push(...list.rejects);
    return list.records;
  };
  stopIfAsked(signal);
  const settings = await client.settings(project.id);
  stopIfAsked(signal);
  const sources = take(await client.sources());
  stopIfAsked(signal);
  const integrations = take(await client.integrations());
  stopIfAsked(signal);
  const segments = take(await client.segments());
  let apiKeys: KbApiKey[] | null = null;
  let accessGroups: KbAccessGroup[] | null = null;
  if (client.hasAdminKey) {
    stopIfAsked(signal);
    apiKeys = take(await client.apiKeys(project.id));
    stopIfAsked(signal);
    accessGroups = take(await client.accessGroups([project.id]));
  }
  return {
    project,
    settings,
    sources: uniqueBy(sources, (s) => s.id, 'sources', rejects),
    integrations: uniqueBy(integrations, (i) => i.id, 'integrations', rejects),
    segments: uniqueBy(segments, (s) => s.name, 'segments', rejects),
    apiKeys: apiKeys && uniqueBy(apiKeys, (k) => k.id, 'api-keys', rejects),
    accessGroups: accessGroups && uniqueBy(accessGroups, (g) => g.id, 'access-groups', rejects),
    rejects,
  };
}

/** The first record of each id; a later one with the same id (a page that shifted) is quarantined. */
function uniqueBy<T>(
  records: readonly T[],
  keyOf: (record: T) => string | KbId,
  endpoint: string,
  rejects: KbReject[],
): T[] {
  const seen = new Set<string | KbId>();
  const out: T[] = [];
  for (const record of records) {
    const key = keyOf(record);
    if (seen.has(key)) {
      rejects.push({
        endpoint,
        recordId: String(key),
        reason: `a second record with the same ${typeof key === 'string' ? 'name' : 'id'} ${key} in one snapshot`,
        raw: record,
      });
      continue;
    }
    seen.add(key);
    out.push(record);
  }
  return out;
}

const ms = (text: string | null | undefined): number | null =>
  text === undefined || text === null || text === '' ? null : Date.parse(text);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const int = (value: unknown): number | null => (Number.isInteger(value) ? (value as number) : null);

/** A member of a settings object by its dotted path (`llm.model`), or undefined. */
function member(object: Record<string, unknown>, path: string): unknown {
  let value: unknown = object;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function toRows(
  read: ProjectRead,
  at: { snapshotId: string; takenAt: number; baseUrl: string; withAdmin: boolean },
): {
  row: KbSnapshotRow;
  sources: KbSourceRow[];
  integrations: KbIntegrationRow[];
  segments: KbSegmentRow[];
  apiKeys: KbApiKeyRow[];
  accessGroups: KbAccessGroupRow[];
  rejects: KbRejectRow[];
} {
  const { settings } = read;
  const sources: KbSourceRow[] = read.sources.map((s) => ({
    source_id: s.id,
    name: s.name,
    type: s.type ?? null,
    status: s.status,
    last_error: s.lastError ?? null,
    size_bytes: s.sizeBytes ?? null,
    size_chars: s.sizeChars ?? null,
    segments: s.segments ?? null,
    access_groups: s.accessControlAttributes ?? null,
    version: s.version === undefined || s.version === null ? null : String(s.version),
    hash: s.hash ?? null,
    created_at_ms: ms(s.createdAt),
  }));
  const integrations: KbIntegrationRow[] = read.integrations.map((i) => ({
    integration_id: i.id,
    name: i.name,
    status: i.status,
    last_error: i.lastError ?? null,
    auto_sync: i.autoSync ?? null,
    sync_interval_minutes: i.syncIntervalMinutes ?? null,
    last_successful_sync_at_ms: ms(i.lastSuccessfulSyncAt),
    settings_base_url: i.settings?.baseUrl ?? null,
    access_groups: i.accessControlAttributes ?? null,
  }));
  const segments: KbSegmentRow[] = read.segments.map((s) => ({
    name: s.name,
    sources_count: s.sourcesCount,
  }));
  const apiKeys: KbApiKeyRow[] = (read.apiKeys ?? []).map((k) => ({
    api_key_id: k.id,
    project_id: k.projectId ?? null,
    name: k.name,
    status: k.status,
    owner_login: k.ownerLogin ?? null,
    created_at_ms: ms(k.createdAt),
    updated_at_ms: ms(k.updatedAt),
    expires_at_ms: ms(k.expiredAt),
    last_used_at_ms: ms(k.lastUsedAt),
  }));
  const accessGroups: KbAccessGroupRow[] = (read.accessGroups ?? []).map((g) => ({
    access_group_id: g.id,
    name: g.name,
    files_count: g.filesCount ?? null,
    integrations_count: g.integrationsCount ?? null,
    created_at_ms: ms(g.audit?.createdAt),
    updated_at_ms: ms(g.audit?.updatedAt),
  }));
  const rejects: KbRejectRow[] = read.rejects.map((r) => ({
    endpoint: r.endpoint,
    record_id: r.recordId,
    raw_json: stringifyKbJson(r.raw),
    error: `not a knowledge base ${r.endpoint} record: ${r.reason}`,
  }));
  const row: KbSnapshotRow = {
    snapshot_id: at.snapshotId,
    taken_at_ms: at.takenAt,
    base_url: at.baseUrl,
    project_id: read.project.id,
    project_name: read.project.name,
    project_status: read.project.status ?? null,
    llm_models: read.project.resources?.llmModels ?? null,
    indexing_model: str(member(settings.indexing, 'model')),
    indexing_llm_model: str(member(settings.indexing, 'llm.model')),
    chunking_method: str(member(settings.indexing, 'chunkingMethod')),
    search_pipeline: str(member(settings.search, 'pipeline')),
    generation_model: str(member(settings.generation, 'llm.model')),
    generation_temperature: num(member(settings.generation, 'llm.temperature')),
    rpm_limit: int(member(settings.generation, 'rpmLimit')),
    settings: { indexing: settings.indexing, search: settings.search, generation: settings.generation },
    with_admin: at.withAdmin,
    sources: sources.length,
    integrations: integrations.length,
    segments: segments.length,
    api_keys: read.apiKeys === null ? null : apiKeys.length,
    access_groups: read.accessGroups === null ? null : accessGroups.length,
    rejects: rejects.length,
  };
  return { row, sources, integrations, segments, apiKeys, accessGroups, rejects };
}

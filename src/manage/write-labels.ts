// Label write-back: the analyst picks sessions (or messages) with SQL on the warehouse and the platform gets
// the label by bulk labeling, in batches. Dry run unless `apply`. Idempotent: ids the warehouse already shows
// labelled are skipped, and each batch is checked on the platform first (one filtered read) so a second run
// sends nothing. Every batch of an applied run is recorded in label_writes, a failed one included. The
// warehouse is used through `useWarehouse` per step, so a caller can release its lock during the requests.
import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { EtlError } from '../errors.js';
import type { Logger } from '../log.js';
import type { ReporterHttp } from '../reporter/http.js';
import {
  bulkLabelMessages,
  bulkLabelSessions,
  readLabelledMessageIds,
  readSessionLabelIds,
} from '../reporter/label-assignments.js';
import { readMessageLabels, readSessionLabels } from '../reporter/labels.js';
import type { PlainRow, Warehouse } from '../warehouse/warehouse.js';
import { pickMessageLabel, pickSessionLabel } from './find-label.js';
import { INSERT_LABEL_WRITE, SAMPLE_MESSAGES, SAMPLE_SESSIONS } from './label-writes-sql.js';
import {
  checkTargetQuery,
  type LabelTarget,
  selectLabelTargets,
  type TargetRow,
} from './select-label-targets.js';
import type { UseWarehouse } from './use-warehouse.js';

export const DEFAULT_BATCH_SIZE = 500;

export interface LabelWriteContext {
  http: ReporterHttp;
  /** Runs `fn` with the warehouse: opened for the call and closed after (useWarehouseAt), or kept open (keepOpen). */
  useWarehouse: UseWarehouse;
  /** projectShortName: the warehouse rows the query may pick. */
  project: string;
  log?: Logger;
  now?: () => number;
  /** Page size of the checking reads (REPORTER_PAGE_SIZE). */
  pageSize?: number;
  /** REPORTER_LOOKBACK_HOURS in ms: says whether the next incremental sync re-reads what was written. */
  lookbackMs?: number;
}

export interface LabelWriteRequest {
  target: LabelTarget;
  /** The label's name; for a message label, `group` picks among same-named labels of several groups. */
  label: string;
  group?: string | undefined;
  /** SELECT returning session_id (target session) or question_id (target message). */
  query: string;
  apply: boolean;
  batchSize?: number;
  sampleSize?: number;
}

export interface LabelWriteBatch {
  batch: number;
  /** Ids of the batch (none labelled in the warehouse). */
  requested: number;
  /** Found labelled on the platform: not sent. */
  alreadyLabelled: number;
  /** Not found on the platform: not sent. */
  missing: number;
  /** Sent (apply) or to send (dry run). */
  written: number;
  status: 'planned' | 'success' | 'unchanged' | 'failed';
  error: string | null;
}

export interface LabelWriteSummary {
  /** label_writes.run_id of an applied run; null for a dry run. */
  runId: string | null;
  project: string;
  target: LabelTarget;
  dryRun: boolean;
  label: { id: number; name: string; group: string | null };
  query: string;
  /** Distinct ids the query returned. */
  selected: number;
  /** Ids not in the warehouse for this project: never written. */
  unknown: number;
  unknownSample: string[];
  alreadyLabelledInWarehouse: number;
  alreadyLabelledOnPlatform: number;
  missingOnPlatform: number;
  /** Ids sent (apply) or that --apply would send (dry run). */
  toWrite: number;
  written: number;
  batches: LabelWriteBatch[];
  /** A few of the rows to write, from the warehouse (times as ISO strings). */
  sample: PlainRow[];
  /** The time range of what was written, and whether the next incremental sync re-reads all of it. */
  sync: { from: string; to: string; coveredByNextSync: boolean } | null;
}

/** [min, max] of the rows' times (a loop: a spread of 100,000 arguments would overflow the stack). */
function timeRange(rows: readonly TargetRow[]): [number, number] {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const row of rows) {
    if (row.time < min) min = row.time;
    if (row.time > max) max = row.time;
  }
  return [min, max];
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let n = 0; n < items.length; n += size) out.push(items.slice(n, n + size));
  return out;
}

function who(): { os_user: string | null; host: string | null } {
  let user: string | null = null;
  try {
    user = userInfo().username;
  } catch {
    user = process.env['USER'] ?? null;
  }
  return { os_user: user, host: hostname() };
}

interface Checked {
  labelled: Set<string>;
  missing: Set<string>;
}

/** One filtered read of the platform: which ids of the batch already carry the label, which do not exist. */
async function checkOnPlatform(
  http: ReporterHttp,
  target: LabelTarget,
  batch: readonly TargetRow[],
  labelId: number,
  pageSize: number,
): Promise<Checked> {
  const [from, to] = timeRange(batch);
  if (target === 'session') {
    const read = await readSessionLabelIds(http, { sessionIds: batch.map((t) => t.id), from, to, pageSize });
    const labelled = new Set<string>();
    const missing = new Set<string>();
    for (const t of batch) {
      const labels = read.labels.get(t.id);
      if (labels?.includes(labelId)) labelled.add(t.id);
      else if (labels === undefined && read.complete) missing.add(t.id);
    }
    return { labelled, missing };
  }
  const read = await readLabelledMessageIds(http, {
    sessionIds: [...new Set(batch.map((t) => t.sessionId))],
    from,
    to,
    labelId,
    pageSize,
  });
  return {
    labelled: new Set(batch.filter((t) => read.questionIds.has(t.id)).map((t) => t.id)),
    missing: new Set(),
  };
}

const HOUR = 3_600_000;

async function resolveLabel(
  http: ReporterHttp,
  request: LabelWriteRequest,
): Promise<{ id: number; name: string; group: string | null }> {
  if (request.target === 'session') {
    const label = pickSessionLabel(await readSessionLabels(http), request.label);
    return { id: label.id, name: label.name, group: null };
  }
  const label = pickMessageLabel(await readMessageLabels(http), request.label, request.group);
  return { id: label.id, name: label.name, group: label.group?.name ?? null };
}

/** A `useWarehouse` over a warehouse the caller keeps open (and closes). */
export function keepOpen(warehouse: Warehouse): UseWarehouse {
  return (fn) => fn(warehouse);
}

export async function writeLabels(
  ctx: LabelWriteContext,
  request: LabelWriteRequest,
): Promise<LabelWriteSummary> {
  const { http, useWarehouse, project } = ctx;
  const target = request.target;
  const now = ctx.now ?? Date.now;
  const batchSize = request.batchSize ?? DEFAULT_BATCH_SIZE;
  const sampleSize = request.sampleSize ?? 10;
  const pageSize = Math.min(ctx.pageSize ?? 500, 500);
  const query = await useWarehouse((w) => checkTargetQuery(w, request.query, target));
  const label = await resolveLabel(http, request);
  const selection = await useWarehouse((w) =>
    selectLabelTargets(w, { target, project, query, labelId: label.id }),
  );
  const runId = request.apply
    ? `${new Date(now()).toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`
    : null;
  const log = ctx.log?.child({ job: `label-${target}s`, ...(runId ? { runId } : {}) });
  const batches = chunk(selection.candidates, batchSize);
  const summary: LabelWriteSummary = {
    runId,
    project,
    target,
    dryRun: !request.apply,
    label,
    query,
    selected: selection.selected,
    unknown: selection.unknown.length,
    unknownSample: selection.unknown.slice(0, sampleSize),
    alreadyLabelledInWarehouse: selection.alreadyLabelled,
    alreadyLabelledOnPlatform: 0,
    missingOnPlatform: 0,
    toWrite: 0,
    written: 0,
    batches: [],
    sample: [],
    sync: null,
  };
  const identity = who();
  const sent: TargetRow[] = [];

  const record = async (
    n: number,
    batch: readonly TargetRow[],
    checked: Checked,
    send: readonly TargetRow[],
    status: 'success' | 'unchanged' | 'failed',
    error: string | null,
    startedAt: number,
  ): Promise<void> => {
    const [first, last] = timeRange(send);
    const row = {
      write_id: `${runId}-${n}`,
      run_id: runId!,
      project,
      target,
      label_id: label.id,
      label_name: label.name,
      group_name: label.group,
      query,
      batch: n,
      batches: batches.length,
      requested: batch.length,
      already_labelled: checked.labelled.size,
      missing: checked.missing.size,
      written: status === 'failed' ? 0 : send.length,
      object_ids: send.map((t) => t.id),
      first_time: send.length > 0 ? new Date(first) : null,
      last_time: send.length > 0 ? new Date(last) : null,
      status,
      error,
      started_at: new Date(startedAt),
      finished_at: new Date(now()),
      ...identity,
    };
    await useWarehouse((w) => w.query(INSERT_LABEL_WRITE, row));
  };

  for (const [index, batch] of batches.entries()) {
    const n = index + 1;
    const startedAt = now();
    const checked = await checkOnPlatform(http, target, batch, label.id, pageSize);
    const send = batch.filter((t) => !checked.labelled.has(t.id) && !checked.missing.has(t.id));
    summary.alreadyLabelledOnPlatform += checked.labelled.size;
    summary.missingOnPlatform += checked.missing.size;
    summary.toWrite += send.length;
    const row: LabelWriteBatch = {
      batch: n,
      requested: batch.length,
      alreadyLabelled: checked.labelled.size,
      missing: checked.missing.size,
      written: send.length,
      status: 'planned',
      error: null,
    };
    summary.batches.push(row);
    if (!request.apply) {
      sent.push(...send.slice(0, Math.max(0, sampleSize - sent.length)));
      continue;
    }
    if (send.length === 0) {
      row.status = 'unchanged';
      await record(n, batch, checked, send, 'unchanged', null, startedAt);
      continue;
    }
    try {
      const bulk = {
        comparisonType: 'CONTAINS' as const,
        labels: [label.id],
        objectIds: send.map((t) => t.id),
      };
      if (target === 'session') await bulkLabelSessions(http, bulk);
      else await bulkLabelMessages(http, bulk);
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      row.status = 'failed';
      row.written = 0;
      row.error = message;
      summary.toWrite -= send.length;
      const unrecorded = await record(n, batch, checked, send, 'failed', message, startedAt).then(
        () => '',
        (error: unknown) => ` (and it could not be recorded in label_writes: ${(error as Error).message})`,
      );
      log?.error({ batch: n, batches: batches.length, error: message }, 'label write failed');
      throw new EtlError(
        'manage.label_write_failed',
        `batch ${n} of ${batches.length} (${send.length} ${target}s) was refused: ${message}${unrecorded}. ` +
          `${summary.written} ${target}s were labelled before it (label_writes, run_id ${runId}); ` +
          'running the command again skips them and retries the rest',
        { kind: cause instanceof EtlError && cause.kind === 'transient' ? 'transient' : 'terminal', cause },
      );
    }
    row.status = 'success';
    summary.written += send.length;
    sent.push(...send);
    await record(n, batch, checked, send, 'success', null, startedAt);
    log?.info({ batch: n, batches: batches.length, written: send.length }, 'labels written');
  }
  if (request.apply && batches.length === 0) {
    await record(0, [], { labelled: new Set(), missing: new Set() }, [], 'unchanged', null, now());
  }

  const sampleIds = sent.slice(0, sampleSize).map((t) => t.id);
  const written = request.apply && sent.length > 0;
  if (sampleIds.length === 0 && !written) return summary;
  const [rows, watermark] = await useWarehouse(
    async (w) =>
      [
        sampleIds.length === 0
          ? []
          : await w.query(target === 'session' ? SAMPLE_SESSIONS : SAMPLE_MESSAGES, {
              project,
              ids: sampleIds,
            }),
        written ? await w.getWatermark(project) : undefined,
      ] as const,
  );
  const timeColumn = target === 'session' ? 'start_time' : 'timestamp';
  summary.sample = rows.map((row) => {
    const time = row[timeColumn];
    return typeof time === 'number' ? { ...row, [timeColumn]: new Date(time).toISOString() } : row;
  });
  if (written) {
    const [first, last] = timeRange(sent);
    summary.sync = {
      from: new Date(Math.floor(first / HOUR) * HOUR).toISOString(),
      to: new Date(Math.ceil((last + 1) / HOUR) * HOUR).toISOString(),
      coveredByNextSync: watermark !== undefined && first >= watermark - (ctx.lookbackMs ?? 0),
    };
  }
  return summary;
}

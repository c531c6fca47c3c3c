// Label write-back: the analyst picks sessions (or messages) with SQL on the warehouse and the platform gets
// the label by bulk labeling, in batches. Dry run unless `apply`. Idempotent: ids the warehouse already shows
// labelled are skipped, and each batch is checked on the platform first (one filtered read) so a second run
// sends nothing. Every batch of an applied run is recorded in label_writes as 'sending' before its request
// and settled after it (success / failed): no write reaches the platform unrecorded. The warehouse is used
// per step (`useWarehouse`, one short write each), the analyst's query only in the read-only sandbox.
import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { EtlError } from '../errors.js';
import type { Logger } from '../log.js';
import {
  type BulkLabeled,
  bulkLabelMessages,
  bulkLabelSessions,
  readLabelledMessageIds,
  readSessionLabelIds,
} from '../platform/reporter/label-assignments.js';
import { readMessageLabels, readSessionLabels } from '../platform/reporter/labels.js';
import type { ReporterHttp } from '../platform/reporter/reporter-http.js';
import type { PlainRow, Warehouse } from '../warehouse/warehouse.js';
import { pickMessageLabel, pickSessionLabel } from './find-label.js';
import {
  INSERT_LABEL_WRITE,
  SAMPLE_MESSAGES,
  SAMPLE_SESSIONS,
  SELECT_UNSETTLED_WRITES,
  SETTLE_LABEL_WRITE,
} from './label-writes-sql.js';
import {
  checkTargetQuery,
  type LabelTarget,
  selectLabelTargets,
  type TargetRow,
} from './select-label-targets.js';
import type { UseQuerySandbox } from './use-query-sandbox.js';
import type { UseWarehouse } from './use-warehouse.js';

export const DEFAULT_BATCH_SIZE = 500;

export interface LabelWriteContext {
  http: ReporterHttp;
  /** Runs `fn` with the warehouse, opened for the call and closed after (useWarehouseAt). */
  useWarehouse: UseWarehouse;
  /**
   * Runs `fn` with the read-only sandbox the analyst's query runs in (useQuerySandboxAt). It opens the same
   * file: never call writeLabels while this process holds the warehouse open.
   */
  useSandbox: UseQuerySandbox;
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

/** A batch of an earlier run recorded as sent and never settled: it may or may not have been applied. */
export interface UnsettledWrite {
  runId: string;
  batch: number;
  batches: number;
  label: string;
  /** Ids sent in its request. */
  ids: number;
  startedAt: string;
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
  /**
   * label_writes rows of this project and target left 'sending' by earlier runs (read before this run): their
   * requests may or may not have been applied; this run's platform check skips what they did label.
   */
  unsettled: UnsettledWrite[];
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

async function readUnsettled(w: Warehouse, project: string, target: LabelTarget): Promise<UnsettledWrite[]> {
  const rows = await w.query(SELECT_UNSETTLED_WRITES, { project, target });
  return rows.map((r) => ({
    runId: String(r['run_id']),
    batch: Number(r['batch']),
    batches: Number(r['batches']),
    label: r['group_name'] ? `${r['label_name']} (${r['group_name']})` : String(r['label_name']),
    ids: Number(r['written']),
    startedAt: new Date(Number(r['started_at'])).toISOString(),
  }));
}

/** One write-back as it goes: what its batches read, record and count. */
interface LabelWriteRun {
  ctx: LabelWriteContext;
  request: LabelWriteRequest;
  target: LabelTarget;
  project: string;
  now: () => number;
  sampleSize: number;
  pageSize: number;
  label: LabelWriteSummary['label'];
  query: string;
  /** Null for a dry run. */
  runId: string | null;
  log: Logger | undefined;
  batches: TargetRow[][];
  summary: LabelWriteSummary;
  identity: { os_user: string | null; host: string | null };
  /** The rows written (or, in a dry run, the first ones that would be): the sample and the sync's range. */
  sent: TargetRow[];
}

export async function writeLabels(
  ctx: LabelWriteContext,
  request: LabelWriteRequest,
): Promise<LabelWriteSummary> {
  const { http, useWarehouse, useSandbox, project } = ctx;
  const target = request.target;
  const now = ctx.now ?? Date.now;
  const batchSize = request.batchSize ?? DEFAULT_BATCH_SIZE;
  const sampleSize = request.sampleSize ?? 10;
  const pageSize = Math.min(ctx.pageSize ?? 500, 500);
  // the warehouse first: it is created and migrated when new (the sandbox opens it read-only)
  const unsettled = await useWarehouse((w) => readUnsettled(w, project, target));
  const query = await useSandbox((s) => checkTargetQuery(s, request.query, target));
  const label = await resolveLabel(http, request);
  const selection = await useSandbox((s) =>
    selectLabelTargets(s, { target, project, query, labelId: label.id }),
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
    unsettled,
  };
  const run: LabelWriteRun = {
    ctx,
    request,
    target,
    project,
    now,
    sampleSize,
    pageSize,
    label,
    query,
    runId,
    log,
    batches,
    summary,
    identity: who(),
    sent: [],
  };
  for (const [index, batch] of batches.entries()) await writeBatch(run, index + 1, batch);
  if (request.apply && batches.length === 0) {
    await recordBatch(run, 0, [], { labelled: new Set(), missing: new Set() }, [], 'unchanged', now());
  }
  await describeWritten(run);
  return summary;
}

/** `count` sessions or messages, in words. */
function countTargets(target: LabelTarget, count: number): string {
  return `${count} ${target}${count === 1 ? '' : 's'}`;
}

/**
 * Batch `n`: checked on the platform first (what carries the label already, what does not exist), counted;
 * in a dry run only planned, else recorded `unchanged` when nothing is left to send, or sent.
 */
async function writeBatch(run: LabelWriteRun, n: number, batch: readonly TargetRow[]): Promise<void> {
  const { summary } = run;
  const startedAt = run.now();
  const checked = await checkOnPlatform(run.ctx.http, run.target, batch, run.label.id, run.pageSize);
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
  if (!run.request.apply) {
    run.sent.push(...send.slice(0, Math.max(0, run.sampleSize - run.sent.length)));
    return;
  }
  if (send.length === 0) {
    row.status = 'unchanged';
    await recordBatch(run, n, batch, checked, send, 'unchanged', startedAt);
    return;
  }
  // recorded before the request: a run stopped after it leaves a 'sending' row, never an unrecorded write
  try {
    await recordBatch(run, n, batch, checked, send, 'sending', startedAt);
  } catch (cause) {
    throw new EtlError(
      'manage.label_write_unrecorded',
      `batch ${n} of ${run.batches.length} could not be recorded in label_writes, so it was not sent: ` +
        `${(cause as Error).message}. ${countTargets(run.target, summary.written)} were labelled before it (run_id ${run.runId}); ` +
        'running the command again skips them and writes the rest',
      { kind: cause instanceof EtlError ? cause.kind : 'terminal', cause },
    );
  }
  const labeled = await sendBatch(run, n, send, row);
  row.status = 'success';
  if (labeled.unreadable !== undefined) row.error = labeled.unreadable;
  summary.written += send.length;
  run.sent.push(...send);
  await settleWritten(run, n, send, labeled);
}

/** The bulk labeling request of a batch; a refused one is settled as failed and fails the run. */
async function sendBatch(
  run: LabelWriteRun,
  n: number,
  send: readonly TargetRow[],
  row: LabelWriteBatch,
): Promise<BulkLabeled> {
  const { http } = run.ctx;
  const { summary, runId } = run;
  try {
    const bulk = {
      comparisonType: 'CONTAINS' as const,
      labels: [run.label.id],
      objectIds: send.map((t) => t.id),
    };
    return run.target === 'session'
      ? await bulkLabelSessions(http, bulk)
      : await bulkLabelMessages(http, bulk);
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    row.status = 'failed';
    row.written = 0;
    row.error = message;
    summary.toWrite -= send.length;
    const unrecorded = await settleBatch(run, n, 0, message).then(
      () => '',
      (error: unknown) =>
        ` (and it could not be settled as failed: label_writes keeps it as 'sending', run_id ${runId} batch ${n}: ${(error as Error).message})`,
    );
    run.log?.error({ batch: n, batches: run.batches.length, error: message }, 'label write failed');
    throw new EtlError(
      'manage.label_write_failed',
      `batch ${n} of ${run.batches.length} (${countTargets(run.target, send.length)}) was refused: ${message}${unrecorded}. ` +
        `${countTargets(run.target, summary.written)} were labelled before it (label_writes, run_id ${runId}); ` +
        'running the command again skips them and retries the rest',
      { kind: cause instanceof EtlError && cause.kind === 'transient' ? 'transient' : 'terminal', cause },
    );
  }
}

/** Settles a written batch as success; one that cannot be settled fails the run, saying what was written. */
async function settleWritten(
  run: LabelWriteRun,
  n: number,
  send: readonly TargetRow[],
  labeled: BulkLabeled,
): Promise<void> {
  const batches = run.batches.length;
  try {
    await settleBatch(run, n, send.length, null, labeled.unreadable);
  } catch (cause) {
    run.log?.error({ batch: n, batches, written: send.length }, 'label write not settled');
    throw new EtlError(
      'manage.label_write_unsettled',
      `batch ${n} of ${batches} (${countTargets(run.target, send.length)}) was written to the platform but could not be ` +
        `settled in label_writes: ${(cause as Error).message}. It stays recorded there as 'sending' ` +
        `(run_id ${run.runId}, batch ${n}); ${countTargets(run.target, run.summary.written)} were labelled in batches 1-${n} of this run. ` +
        'Running the command again skips what the platform shows labelled and writes the rest',
      { kind: cause instanceof EtlError ? cause.kind : 'terminal', cause },
    );
  }
  run.log?.info({ batch: n, batches, written: send.length }, 'labels written');
}

/** Inserts the batch's row: 'sending' before its request (finished_at null), 'unchanged' when final. */
async function recordBatch(
  run: LabelWriteRun,
  n: number,
  batch: readonly TargetRow[],
  checked: Checked,
  send: readonly TargetRow[],
  status: 'sending' | 'unchanged',
  startedAt: number,
): Promise<void> {
  const { label } = run;
  const [first, last] = timeRange(send);
  const row = {
    write_id: `${run.runId}-${n}`,
    run_id: run.runId!,
    project: run.project,
    target: run.target,
    label_id: label.id,
    label_name: label.name,
    group_name: label.group,
    query: run.query,
    batch: n,
    batches: run.batches.length,
    requested: batch.length,
    already_labelled: checked.labelled.size,
    missing: checked.missing.size,
    written: send.length,
    object_ids: send.map((t) => t.id),
    first_time: send.length > 0 ? new Date(first) : null,
    last_time: send.length > 0 ? new Date(last) : null,
    status,
    error: null,
    started_at: new Date(startedAt),
    finished_at: status === 'sending' ? null : new Date(run.now()),
    ...run.identity,
  };
  await run.ctx.useWarehouse((w) => w.query(INSERT_LABEL_WRITE, row));
}

/**
 * Settles a 'sending' row after its request: success (written) or failed (nothing written); `note`: a
 * success whose answer could not be read (kept in the error column of the success row).
 */
async function settleBatch(
  run: LabelWriteRun,
  n: number,
  written: number,
  error: string | null,
  note?: string,
): Promise<void> {
  const settled = await run.ctx.useWarehouse((w) =>
    w.query(SETTLE_LABEL_WRITE, {
      write_id: `${run.runId}-${n}`,
      status: error === null ? 'success' : 'failed',
      error: error ?? note ?? null,
      written,
      finished_at: new Date(run.now()),
    }),
  );
  if (settled.length !== 1)
    throw new EtlError(
      'manage.label_write_missing',
      `its 'sending' row ${run.runId}-${n} is not in label_writes`,
    );
}

/** The summary's sample of the rows written (or to write), and the range the next sync should read again. */
async function describeWritten(run: LabelWriteRun): Promise<void> {
  const { target, project, sent, summary } = run;
  const sampleIds = sent.slice(0, run.sampleSize).map((t) => t.id);
  const written = run.request.apply && sent.length > 0;
  if (sampleIds.length === 0 && !written) return;
  const [rows, watermark] = await run.ctx.useWarehouse(
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
      coveredByNextSync: watermark !== undefined && first >= watermark - (run.ctx.lookbackMs ?? 0),
    };
  }
}

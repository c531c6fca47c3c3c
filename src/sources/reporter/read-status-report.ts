// The delivery statuses of a whole window from one platform report task: a `messages` report of the window's
// status channels, created (CSV, or XLSX once a create asking CSV was answered 400), waited for (v1: long-polled
// async events; legacy: the task polled), downloaded from its fileUrl and deleted (the statuses are handed over
// while the deletion is under way). Its rows are every message of the window as of the task's creation, each
// with its latest status: a few requests in place of one messages/by-client read per client. The file is read
// by its content (read-status-table.ts: XLSX or CSV whatever was asked, the columns found by their values).
// Invariants: the result is complete or it is a failure (a file whose data rows differ from the task's
// totalCount, no column of statuses or of ids, a task that failed or did not finish in time); the
// file is fetched only from under the generation's Reporter prefix (the token never goes anywhere else);
// the caller falls back to the per-client reads on any failure, so nothing is lost.
import { z } from 'zod';
import { EtlError } from '../../errors.js';
import { channelTypeFilter, messageTimeFilter, sessionIdFilter } from '../../platform/reporter/filters.js';
import type { ReporterHttp, ReporterRequest } from '../../platform/reporter/reporter-http.js';
import { ReportFileError, readStatusTable } from './read-status-table.js';
import type { ReportStatuses } from './report-statuses.js';

export interface StatusReportOptions {
  /** The window: [from, to). */
  from: number;
  to: number;
  channels: readonly string[];
  /** Only these sessions' messages (SESSION_ID); undefined: every session of the window. */
  sessionIds?: readonly string[] | undefined;
  /** Real ms after which the task is given up (deleted) and the window reads its statuses per client. */
  waitMs: number;
  /** The first interval between polls of a legacy task (grows to 1 s). */
  pollMs?: number;
  signal?: AbortSignal | undefined;
  /** The file type asked (default CSV: the quickest to read); a create answered 400 for CSV asks XLSX. */
  fileType?: ReportFileType;
  /** Hears of a window whose message ids no column of the report holds (report-statuses.ts). */
  onUnmatched?: (reason: string) => void;
}

export type ReportFileType = 'CSV' | 'XLSX';

export type StatusReport =
  | {
      ok: true;
      statuses: ReportStatuses;
      rows: number;
      requests: number;
      /** The task's deletion, under way (its request counted): it keeps no window waiting; never rejects. */
      deleted: Promise<void>;
      /** What the file was, by its content; and whether the create asking CSV was refused (XLSX asked). */
      file: { fileType: ReportFileType; delimiter?: string; encoding?: string };
      csvRefused: boolean;
    }
  | { ok: false; reason: string; refused: boolean; requests: number; csvRefused: boolean };

/** The platform refused the operation itself (not this window's task): no use asking again in this run. */
const REFUSALS = new Set([
  'reporter.auth',
  'reporter.not_found',
  'reporter.bad_request',
  'reporter.unsupported',
]);

const taskSchema = z.object({
  taskId: z.union([z.string().min(1), z.number()]).transform(String),
  status: z.string().min(1),
  totalCount: z.number().nullish(),
  fileUrl: z.string().nullish(),
});
type Task = z.infer<typeof taskSchema>;

const eventSchema = z.object({
  requestId: z.string(),
  isOk: z.boolean(),
  responseTime: z.string(),
  payload: z.unknown().optional(),
  error: z.object({ message: z.string().nullish() }).loose().nullish(),
});

const FINAL = new Set(['COMPLETED', 'FAILED', 'STOPPED', 'DELETED']);

class ReportFailure extends Error {}

/** The report's requests: JSON answers through `http`, the file as text through `fileHttp`. */
class ReportCalls {
  requests = 0;
  constructor(
    readonly http: ReporterHttp,
    private readonly fileHttp: ReporterHttp,
  ) {}

  /** The answer's body as it came (`fileHttp` reads bodies as bytes). */
  async bytes(req: ReporterRequest): Promise<Uint8Array> {
    this.requests++;
    const answer = await this.fileHttp.raw(req);
    if (answer.value instanceof Uint8Array) return answer.value;
    return typeof answer.value === 'string' ? Buffer.from(answer.value) : new Uint8Array();
  }

  async json<T>(req: ReporterRequest, schema: z.ZodType<T>, what: string): Promise<T> {
    this.requests++;
    const parsed = schema.safeParse(await this.http.json(req));
    if (!parsed.success) throw new ReportFailure(`${what} answered an unexpected shape`);
    return parsed.data;
  }

  async send(req: ReporterRequest): Promise<void> {
    this.requests++;
    await this.http.raw(req);
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** `http` reads JSON answers; `fileHttp` reads every answer's body as bytes (bodyAs `bytes`), for the file. */
export async function readStatusReport(
  http: ReporterHttp,
  fileHttp: ReporterHttp,
  o: StatusReportOptions,
): Promise<StatusReport> {
  const calls = new ReportCalls(http, fileHttp);
  let created: Created;
  try {
    created = await createAsking(calls, o);
  } catch (error) {
    // a create the platform refused (401/403/404/400) is the operation refused, not this window's task
    const code = error instanceof EtlError ? error.code : undefined;
    return failure(error, calls, code !== undefined && REFUSALS.has(code), o, false);
  }
  try {
    const task = await waitForReport(calls, created, o);
    const table = await downloadStatuses(calls, task, o);
    const deleted = deleteReport(calls, task.taskId);
    const { statuses, ...file } = table;
    const rows = statuses.rows;
    return {
      ok: true,
      statuses,
      rows,
      requests: calls.requests,
      deleted,
      file,
      csvRefused: created.csvRefused,
    };
  } catch (error) {
    // the task is known by its id once created (legacy) or once an event named it (v1)
    if (created.taskId !== undefined) await deleteReport(calls, created.taskId);
    return failure(error, calls, false, o, created.csvRefused);
  }
}

function failure(
  error: unknown,
  calls: ReportCalls,
  refused: boolean,
  o: StatusReportOptions,
  csvRefused: boolean,
): StatusReport {
  o.signal?.throwIfAborted();
  const reason = error instanceof Error ? error.message : String(error);
  return { ok: false, reason, refused, requests: calls.requests, csvRefused };
}

interface Created {
  requestId?: string;
  taskId?: string;
  /** The create asking CSV was answered 400, the one asking XLSX was not. */
  csvRefused: boolean;
}

/**
 * Creates the task asking o.fileType (CSV by default); a CSV create answered 400 is asked again for XLSX (a
 * server that writes XLSX only; the seeds show no other type), and a 400 to that is the operation refused.
 */
async function createAsking(calls: ReportCalls, o: StatusReportOptions): Promise<Created> {
  const fileType = o.fileType ?? 'CSV';
  try {
    return { ...(await createReport(calls, o, fileType)), csvRefused: false };
  } catch (error) {
    if (fileType !== 'CSV' || !(error instanceof EtlError) || error.code !== 'reporter.bad_request')
      throw error;
    return { ...(await createReport(calls, o, 'XLSX')), csvRefused: true };
  }
}

async function createReport(
  calls: ReportCalls,
  o: StatusReportOptions,
  fileType: ReportFileType,
): Promise<Omit<Created, 'csvRefused'>> {
  const v1 = calls.http.api === 'v1';
  const body = {
    filters: [
      messageTimeFilter(o.from, o.to),
      channelTypeFilter(o.channels),
      ...(o.sessionIds === undefined ? [] : [sessionIdFilter(o.sessionIds)]),
    ],
    settings:
      fileType === 'CSV' ? { fileType, withHeader: true, delimiter: ',' } : { fileType, withHeader: true },
  };
  const req: ReporterRequest = v1
    ? { method: 'POST', op: 'reporter/reports/messages', scope: 'async', body }
    : { method: 'POST', op: 'reports/messages', body };
  if (v1) {
    const schema = z.object({ requestId: z.string().min(1) });
    return await calls.json(req, schema, 'POST reports/messages');
  }
  return { taskId: (await calls.json(req, taskSchema, 'POST reports/messages')).taskId };
}

/** Waits for the task's final state; a task that did not complete is a failure. */
async function waitForReport(calls: ReportCalls, created: Created, o: StatusReportOptions): Promise<Task> {
  const deadline = performance.now() + o.waitMs;
  const task =
    created.requestId !== undefined
      ? await pollEvents(calls, created, deadline, o.signal)
      : await pollTask(calls, created.taskId!, deadline, o);
  if (task.status !== 'COMPLETED') throw new ReportFailure(`the report task ended ${task.status}`);
  return task;
}

/** Long-polls the request's events; notes the task id in `created` as soon as an event names it. */
async function pollEvents(
  calls: ReportCalls,
  created: Created,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<Task> {
  const requestId = created.requestId!;
  const answerSchema = z.object({ response: z.array(z.unknown()) });
  let after: number | undefined;
  let latest: Task | undefined;
  for (;;) {
    const left = deadline - performance.now();
    if (left <= 0) throw new ReportFailure('the report task did not finish in time');
    signal?.throwIfAborted();
    const timeout = Math.max(0, Math.min(5, Math.floor(left / 1000)));
    const req: ReporterRequest = {
      method: 'GET',
      op: 'events',
      scope: 'async',
      query: { requestId, timeout, startTime: after },
    };
    const answer = await calls.json(req, answerSchema, 'GET async/events');
    for (const item of answer.response) {
      if ((item as { requestId?: unknown } | null)?.requestId !== requestId) continue;
      const event = eventSchema.safeParse(item);
      if (!event.success) throw new ReportFailure('GET async/events answered an unexpected event');
      const time = Date.parse(event.data.responseTime);
      if (after !== undefined && time <= after) continue;
      after = time;
      const task = taskSchema.safeParse(event.data.payload);
      if (task.success) created.taskId = task.data.taskId;
      if (!event.data.isOk)
        throw new ReportFailure(`the report task failed: ${event.data.error?.message ?? 'no reason given'}`);
      if (!task.success) throw new ReportFailure('an async event carried no report task');
      latest = task.data;
    }
    if (latest !== undefined && FINAL.has(latest.status)) return latest;
  }
}

async function pollTask(calls: ReportCalls, taskId: string, deadline: number, o: StatusReportOptions) {
  let interval = o.pollMs ?? 150;
  for (;;) {
    const req: ReporterRequest = { method: 'GET', op: `reports/tasks/${encodeURIComponent(taskId)}` };
    const task = await calls.json(req, taskSchema, 'GET reports/tasks/{taskId}');
    if (FINAL.has(task.status)) return task;
    if (performance.now() + interval > deadline)
      throw new ReportFailure('the report task did not finish in time');
    await sleep(interval, o.signal);
    interval = Math.min(interval * 1.5, 1_000);
  }
}

/** The file's statuses, read by its content; the file must hold the task's totalCount rows. */
async function downloadStatuses(calls: ReportCalls, task: Task, o: StatusReportOptions) {
  const op = fileOperation(calls.http, task.fileUrl);
  const bytes = await calls.bytes({ method: 'GET', op, withProject: false });
  let table: Awaited<ReturnType<typeof readStatusTable>>;
  try {
    table = await readStatusTable(bytes, o.onUnmatched ?? (() => {}));
  } catch (error) {
    if (!(error instanceof ReportFileError)) throw error;
    throw new ReportFailure(`the report file of task ${task.taskId}: ${error.message}`);
  }
  const data = table.statuses.rows;
  if (task.totalCount != null && data !== task.totalCount)
    throw new ReportFailure(`the report file holds ${data} rows, the task says ${task.totalCount}`);
  return table;
}

/** The file URL as an operation under the Reporter prefix; anything else is refused. */
function fileOperation(http: ReporterHttp, fileUrl: string | null | undefined): string {
  if (!fileUrl) throw new ReportFailure('the completed report task has no file URL');
  const prefix = `${http.buildUrl({ method: 'GET', op: '', withProject: false })}/`;
  if (!fileUrl.startsWith(prefix))
    throw new ReportFailure('the report file is not under the Reporter API prefix of REPORTER_BASE_URL');
  return fileUrl.slice(prefix.length);
}

/** Removes the task from the platform's list; a failure only leaves it there. */
async function deleteReport(calls: ReportCalls, taskId: string): Promise<void> {
  try {
    await calls.send({ method: 'DELETE', op: `reports/tasks/${encodeURIComponent(taskId)}` });
  } catch {}
}

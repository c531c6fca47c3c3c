// The delivery statuses of a whole window from one platform report task: a `messages` report (CSV) of the
// window's status channels, created, waited for (v1: long-polled async events; legacy: the task polled),
// downloaded from its fileUrl and deleted (the statuses are handed over while the deletion is under way). Its
// rows are every message of the window as of the task's creation, each with its latest status: a few
// requests in place of one messages/by-client read per client.
// Invariants: the result is complete or it is a failure (a file whose data rows differ from the task's
// totalCount, a header without questionId or status, a task that failed or did not finish in time); the
// file is fetched only from under the generation's Reporter prefix (the token never goes anywhere else);
// the caller falls back to the per-client reads on any failure, so nothing is lost.
import { z } from 'zod';
import { EtlError } from '../../errors.js';
import { channelTypeFilter, messageTimeFilter, sessionIdFilter } from '../../platform/reporter/filters.js';
import type { ReporterHttp, ReporterRequest } from '../../platform/reporter/reporter-http.js';
import { CsvShapeError, pickCsvColumns } from './pick-csv-columns.js';

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
}

export type StatusReport =
  | {
      ok: true;
      statuses: Map<string, string | null>;
      rows: number;
      requests: number;
      /** The task's deletion, under way (its request counted): it keeps no window waiting; never rejects. */
      deleted: Promise<void>;
    }
  | { ok: false; reason: string; refused: boolean; requests: number };

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

  async text(req: ReporterRequest): Promise<string> {
    this.requests++;
    const answer = await this.fileHttp.raw(req);
    return typeof answer.value === 'string' ? answer.value : '';
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

/** `http` reads JSON answers; `fileHttp` reads every answer as text (parseJson the identity), for the CSV. */
export async function readStatusReport(
  http: ReporterHttp,
  fileHttp: ReporterHttp,
  o: StatusReportOptions,
): Promise<StatusReport> {
  const calls = new ReportCalls(http, fileHttp);
  let created: Created;
  try {
    created = await createReport(calls, o);
  } catch (error) {
    // a create the platform refused (401/403/404/400) is the operation refused, not this window's task
    const code = error instanceof EtlError ? error.code : undefined;
    return failure(error, calls, code !== undefined && REFUSALS.has(code), o);
  }
  try {
    const task = await waitForReport(calls, created, o);
    const statuses = await downloadStatuses(calls, task);
    const deleted = deleteReport(calls, task.taskId);
    return { ok: true, statuses, rows: statuses.size, requests: calls.requests, deleted };
  } catch (error) {
    // the task is known by its id once created (legacy) or once an event named it (v1)
    if (created.taskId !== undefined) await deleteReport(calls, created.taskId);
    return failure(error, calls, false, o);
  }
}

function failure(error: unknown, calls: ReportCalls, refused: boolean, o: StatusReportOptions): StatusReport {
  o.signal?.throwIfAborted();
  const reason = error instanceof Error ? error.message : String(error);
  return { ok: false, reason, refused, requests: calls.requests };
}

interface Created {
  requestId?: string;
  taskId?: string;
}

async function createReport(calls: ReportCalls, o: StatusReportOptions): Promise<Created> {
  const v1 = calls.http.api === 'v1';
  const body = {
    filters: [
      messageTimeFilter(o.from, o.to),
      channelTypeFilter(o.channels),
      ...(o.sessionIds === undefined ? [] : [sessionIdFilter(o.sessionIds)]),
    ],
    settings: { fileType: 'CSV', withHeader: true, delimiter: ',' },
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

/** The file's statuses by questionId; the file must hold the task's totalCount rows. */
async function downloadStatuses(calls: ReportCalls, task: Task): Promise<Map<string, string | null>> {
  const op = fileOperation(calls.http, task.fileUrl);
  const text = await calls.text({ method: 'GET', op, withProject: false });
  // only the two columns are read of each record (the header, the first record, says where they are)
  const statuses = new Map<string, string | null>();
  let data: number;
  try {
    data = pickCsvColumns(text, ['questionId', 'status'], ([id, status]) => {
      statuses.set(id!, status === '' || status === undefined ? null : status);
    });
  } catch (error) {
    if (!(error instanceof CsvShapeError)) throw error;
    throw new ReportFailure(`the report file does not read as CSV (${error.message})`);
  }
  if (task.totalCount != null && data !== task.totalCount)
    throw new ReportFailure(`the report file holds ${data} rows, the task says ${task.totalCount}`);
  return statuses;
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

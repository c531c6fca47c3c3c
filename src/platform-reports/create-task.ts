// Creates a report task exactly once: the record is written (status creating, with the platform's task ids
// as they were) BEFORE the create request is sent, and updated with the request or task id as soon as the
// platform answers. When a create gets no clear answer (dropped connection, timeout, 5xx, a crash), the
// platform's task list decides: a task that was not there before and is not recorded is adopted; none at
// all means it was not created and it is sent again; two or more is reported, never guessed.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { EtlError } from '../errors.js';
import { buildCreateRequest, type ReportSpec } from './build-create-request.js';
import type { CreateAnswer } from './report-api.js';
import { reportFileName } from './report-file-name.js';
import { KIND_INFO } from './report-kinds.js';
import type { ReportTaskDto } from './report-schemas.js';
import type { ReportSession } from './report-session.js';
import { RELEASED_OWNER, type TaskPatch, type TaskRecord } from './task-store.js';

/** Errors after which the platform certainly did not create the task (it answered 4xx). */
const REFUSED = new Set([
  'reporter.bad_request',
  'reporter.not_found',
  'reporter.auth',
  'reporter.unsupported',
]);

export function specOf(record: TaskRecord): ReportSpec {
  return {
    kind: record.kind,
    period: { from: record.periodFrom, to: record.periodTo },
    filters: record.filters,
    fileType: record.fileType,
  };
}

function answerPatch(answer: CreateAnswer): TaskPatch {
  if (answer.task) {
    const t = answer.task;
    return {
      status: 'pending',
      taskId: t.taskId,
      platformStatus: t.status,
      writeCount: t.writeCount ?? null,
      totalCount: t.totalCount ?? null,
      requestTime: t.creationTime ?? null,
      tasksBefore: null,
    };
  }
  return {
    status: 'pending',
    requestId: answer.requestId ?? null,
    requestTime: answer.requestTime ?? null,
    tasksBefore: null,
  };
}

function adoptPatch(task: ReportTaskDto): TaskPatch {
  return {
    status: 'pending',
    taskId: task.taskId,
    platformStatus: task.status,
    writeCount: task.writeCount ?? null,
    totalCount: task.totalCount ?? null,
    requestTime: task.creationTime ?? null,
    tasksBefore: null,
  };
}

/** Platform tasks that may be the answer to this record's unanswered create request. */
async function unrecordedCandidates(session: ReportSession, record: TaskRecord): Promise<ReportTaskDto[]> {
  const [tasks, recorded] = await Promise.all([
    session.api.listTasks(),
    session.store.recordedTaskIds(session.scope.baseUrl),
  ]);
  const before = new Set(record.tasksBefore ?? []);
  const reportType = KIND_INFO[record.kind].reportType;
  return tasks.filter(
    (t) =>
      !before.has(t.taskId) &&
      !recorded.has(t.taskId) &&
      (t.reportType == null || t.reportType === reportType) &&
      (t.settings?.fileType == null ||
        record.kind === 'telephony' ||
        t.settings.fileType === record.fileType),
  );
}

async function fail(session: ReportSession, record: TaskRecord, message: string): Promise<void> {
  await session.store.update(record.id, {
    status: 'failed',
    error: message,
    finishedAt: session.now(),
    ...RELEASED_OWNER,
  });
}

/**
 * After a create without a clear answer: adopts the one new task no record claims, refuses to guess between
 * several, or (none) answers undefined: the platform did not create it.
 */
async function settleUnanswered(session: ReportSession, record: TaskRecord): Promise<TaskRecord | undefined> {
  const candidates = await unrecordedCandidates(session, record);
  if (candidates.length === 1) {
    const patch = adoptPatch(candidates[0]!);
    await session.store.update(record.id, patch);
    session.log.info(
      { id: record.id, taskId: candidates[0]!.taskId },
      'the unanswered create request did create a task: adopted',
    );
    return { ...record, ...patch };
  }
  if (candidates.length > 1) {
    const ids = candidates.map((t) => t.taskId).join(', ');
    const message = `the create request got no answer and the platform shows ${candidates.length} new ${KIND_INFO[record.kind].reportType} tasks (${ids}) that no record claims: not created again; see \`reporter-etl platform-report list\``;
    await fail(session, record, message);
    throw new EtlError('platform_report.ambiguous_create', message);
  }
  return undefined;
}

/**
 * Sends the create request of a record in status `creating` and records the answer. With `checkFirst`
 * (a record found after a restart) the platform's task list is looked at before anything is sent.
 */
export async function sendCreate(
  session: ReportSession,
  record: TaskRecord,
  options: { checkFirst: boolean },
): Promise<TaskRecord> {
  const retries = session.ctx.config.retries;
  let check = options.checkFirst;
  let lastError: unknown;
  const pause = (attempt: number) =>
    // give a create still under way on the platform the time to show in its task list
    session.sleep(Math.min(30_000, (session.ctx.backoffBaseMs ?? 500) * 2 ** attempt));
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (check) {
      if (lastError !== undefined) await pause(attempt - 1);
      const adopted = await settleUnanswered(session, record);
      if (adopted) return adopted;
      // none: the platform did not create it; a fresh snapshot, then send (again)
      const tasks = await session.api.listTasks();
      record = { ...record, tasksBefore: tasks.map((t) => t.taskId) };
      await session.store.update(record.id, { tasksBefore: record.tasksBefore });
    }
    try {
      const answer = await session.api.create(record.kind, record.request);
      const patch = answerPatch(answer);
      await session.store.update(record.id, patch);
      return { ...record, ...patch };
    } catch (error) {
      if (error instanceof EtlError && REFUSED.has(error.code)) {
        await fail(session, record, error.message);
        throw error;
      }
      lastError = error;
      check = true;
      session.log.warn(
        { id: record.id, kind: record.kind, reason: error instanceof Error ? error.message : String(error) },
        'the create request got no clear answer; looking at the platform before sending it again',
      );
    }
  }
  // the last attempt may have created it too
  await pause(retries);
  const adopted = await settleUnanswered(session, record);
  if (adopted) return adopted;
  const reason = lastError instanceof Error ? lastError.message : String(lastError);
  const message = `the platform did not create the ${record.kind} report after ${retries + 1} attempts: ${reason}`;
  await fail(session, record, message);
  throw new EtlError('platform_report.create_failed', message, { kind: 'transient', cause: lastError });
}

/** Records a new task for `spec` and creates it on the platform; `replaces` names an expired record. */
export async function createTask(
  session: ReportSession,
  spec: ReportSpec,
  options: { outDir: string; replaces?: string; filePath?: string },
): Promise<TaskRecord> {
  const request = buildCreateRequest(spec, session.scope.api, session.project);
  const before = await session.api.listTasks();
  const record = await session.store.insert({
    id: randomUUID(),
    project: session.project,
    api: session.scope.api,
    baseUrl: session.scope.baseUrl,
    kind: spec.kind,
    periodFrom: spec.period.from,
    periodTo: spec.period.to,
    filters: [...spec.filters],
    fileType: spec.fileType,
    request,
    requestId: null,
    requestTime: null,
    taskId: null,
    status: 'creating',
    platformStatus: null,
    writeCount: null,
    totalCount: null,
    fileName: null,
    filePath: options.filePath ?? join(options.outDir, reportFileName(spec)),
    fileRows: null,
    lastEventTime: null,
    tasksBefore: before.map((t) => t.taskId),
    replaces: options.replaces ?? null,
    finishedAt: null,
    ...session.owner,
    heartbeatAt: session.now(),
    error: null,
  });
  return sendCreate(session, record, { checkFirst: false });
}

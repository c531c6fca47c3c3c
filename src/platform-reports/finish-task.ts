// Finishes one recorded report task: waits for its final state (recording progress as it goes), then
// downloads the file with the token, checks that it opens (XLSX through exceljs, CSV parsed) and holds
// totalCount rows, and renames it into place. An expired file link (410) marks the record expired and the
// same report is requested again (at most twice). Invariants: a deadline or a transient fault leaves the
// record pending and resumable; the file appears under its final name only complete and verified. The
// caller holds the task's lease (claimed or created); it is refreshed every beat while this waits and
// downloads, and released when it stops (src/warehouse/lease.ts).
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { EtlError } from '../errors.js';
import { makeDirectory } from '../files/make-directory.js';
import { TRUSTED_FOLDER_MODE } from '../files/trusted-folder.js';
import { type Heartbeat, startHeartbeat } from '../warehouse/lease.js';
import { createTask, sendCreate, specOf } from './create-task.js';
import { downloadReportFile, URL_EXPIRED } from './download-report-file.js';
import { applyTaskDto, FINAL_STATUSES, type TaskState } from './fold-task-events.js';
import { readReportFile } from './read-report-file.js';
import type { FileType } from './report-kinds.js';
import type { ReportSession, WaitOptions } from './report-session.js';
import { describePeriod } from './resolve-report-period.js';
import { RELEASED_OWNER, type TaskPatch, type TaskRecord, type TaskStatus } from './task-store.js';
import { waitForTask } from './wait-for-task.js';

/** How many times an expired file link leads to the report being requested again, per run. */
const MAX_REREQUESTS = 2;
/** Progress is written to the table at most this often (status changes at once). */
const PROGRESS_WRITE_MS = 2_000;

export interface TaskOutcome {
  id: string;
  kind: string;
  period: string;
  status: TaskStatus;
  platformStatus: string | null;
  requestId: string | null;
  taskId: string | null;
  writeCount: number | null;
  totalCount: number | null;
  filePath: string | null;
  rows: number | null;
  error: string | null;
  replaces: string | null;
}

function stateOf(record: TaskRecord): TaskState {
  return {
    taskId: record.taskId,
    status: record.platformStatus,
    writeCount: record.writeCount,
    totalCount: record.totalCount,
    fileUrl: null,
    fileName: record.fileName,
    fileType: null,
    delimiter: null,
    withHeader: null,
    error: null,
    lastEventTime: record.lastEventTime,
  };
}

function outcomeOf(record: TaskRecord, patch: TaskPatch = {}): TaskOutcome {
  const r = { ...record, ...patch };
  return {
    id: r.id,
    kind: r.kind,
    period: describePeriod({ from: r.periodFrom, to: r.periodTo }),
    status: r.status,
    platformStatus: r.platformStatus,
    requestId: r.requestId,
    taskId: r.taskId,
    writeCount: r.writeCount,
    totalCount: r.totalCount,
    filePath: r.status === 'completed' ? r.filePath : null,
    rows: r.fileRows,
    error: r.error,
    replaces: r.replaces,
  };
}

function statePatch(state: TaskState): TaskPatch {
  return {
    taskId: state.taskId,
    platformStatus: state.status,
    writeCount: state.writeCount,
    totalCount: state.totalCount,
    lastEventTime: state.lastEventTime,
    ...(state.fileName === null ? {} : { fileName: state.fileName }),
  };
}

function fileTypeOf(state: TaskState, record: TaskRecord): FileType {
  const name = state.fileName?.toLowerCase() ?? '';
  if (name.endsWith('.csv')) return 'CSV';
  if (name.endsWith('.xlsx')) return 'XLSX';
  if (state.fileType === 'CSV' || state.fileType === 'XLSX') return state.fileType;
  return record.fileType;
}

/** Downloads, verifies and renames the file of a COMPLETED task; returns the path and the data rows. */
async function downloadVerified(
  session: ReportSession,
  record: TaskRecord,
  state: TaskState,
  outDir: string,
): Promise<{ path: string; rows: number; state: TaskState }> {
  let current = state;
  if (current.fileUrl === null && current.taskId !== null)
    current = applyTaskDto(current, await session.api.getTask(current.taskId));
  if (current.fileUrl === null)
    throw new EtlError(
      'platform_report.bad_answer',
      `task ${current.taskId} is COMPLETED but the platform gave no fileUrl for it`,
    );
  const fileType = fileTypeOf(current, record);
  const planned = record.filePath ?? join(outDir, `${record.kind}_${record.id}.xlsx`);
  const named = (type: FileType) => planned.replace(/\.(csv|xlsx)$/i, type === 'CSV' ? '.csv' : '.xlsx');
  let path = named(fileType);
  makeDirectory(dirname(path), TRUSTED_FOLDER_MODE);
  const temp = join(dirname(path), `.${basename(path)}.${(current.taskId ?? record.id).slice(0, 8)}.part`);
  const { config } = session.ctx;
  try {
    await downloadReportFile({
      url: current.fileUrl,
      baseUrl: session.scope.baseUrl,
      api: session.scope.api,
      token: session.token,
      path: temp,
      what: `the ${record.kind} report file of task ${current.taskId}`,
      timeoutMs: config.timeoutMs,
      retries: config.retries,
      ...(session.ctx.backoffBaseMs === undefined ? {} : { backoffBaseMs: session.ctx.backoffBaseMs }),
      sleep: session.sleep,
      log: session.log,
    });
    const summary = await readReportFile(temp, {
      fileType,
      delimiter: current.delimiter ?? ',',
      withHeader: current.withHeader ?? true,
    });
    if (current.totalCount !== null && summary.rows !== current.totalCount)
      throw new EtlError(
        'platform_report.bad_file',
        `the ${record.kind} report file of task ${current.taskId} holds ${summary.rows} rows where the platform reported ${current.totalCount}`,
      );
    // named for what it is by its content: a server may serve XLSX for CSV
    path = named(summary.fileType);
    await rename(temp, path);
    return { path, rows: summary.rows, state: current };
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  }
}

/** One record being finished: the record and the task's state as they move, and what the steps share. */
interface Finishing {
  session: ReportSession;
  options: WaitOptions;
  /** An expired file link may lead to a new request (said in the record's error). */
  requestAgain: boolean;
  record: TaskRecord;
  state: TaskState;
  period: string;
}

/** Waits for one record and downloads its file; never requests it again (see finishTask). */
async function finishOnce(
  session: ReportSession,
  initial: TaskRecord,
  options: WaitOptions,
  requestAgain: boolean,
): Promise<{ outcome: TaskOutcome; record: TaskRecord }> {
  const { store, log } = session;
  const f: Finishing = {
    session,
    options,
    requestAgain,
    record: initial,
    state: stateOf(initial),
    period: describePeriod({ from: initial.periodFrom, to: initial.periodTo }),
  };
  const heartbeat = startHeartbeat(() => store.beat(f.record.id, session.ownerId), session.lease.beatMs, log);
  try {
    if (f.record.status === 'creating') {
      // the process stopped before the platform's answer was recorded: the task list decides
      f.record = await sendCreate(session, f.record, { checkFirst: true });
      f.state = stateOf(f.record);
    }
    const waited = await waitForFinalState(f);
    f.state = waited.state;
    if (waited.timedOut) return await endPastDeadline(f);
    return await endInFinalState(f);
  } catch (error) {
    return await endAfterError(f, error, heartbeat);
  } finally {
    await heartbeat.stop();
  }
}

/** Tells the caller's progress hook where the task is. */
function showProgress(f: Finishing, state: TaskState, phase: 'waiting' | 'downloading' | 'done'): void {
  f.session.ctx.onProgress?.({
    id: f.record.id,
    kind: f.record.kind,
    period: f.period,
    taskId: state.taskId,
    status: state.status ?? 'CREATED',
    writeCount: state.writeCount,
    totalCount: state.totalCount,
    phase,
  });
}

/** Writes the record's last patch (and releases its lease): the outcome. */
async function endTask(
  f: Finishing,
  patch: TaskPatch,
): Promise<{ outcome: TaskOutcome; record: TaskRecord }> {
  const released: TaskPatch = RELEASED_OWNER;
  const full: TaskPatch = { ...patch, ...released };
  if (patch.status !== undefined && patch.status !== 'pending') full.finishedAt = f.session.now();
  await f.session.store.update(f.record.id, full);
  f.record = { ...f.record, ...full };
  return { outcome: outcomeOf(f.record), record: f.record };
}

/**
 * Waits for the task's final state (or the deadline), logging each change of status and writing the task id
 * at once, a change of status at once and progress at most every PROGRESS_WRITE_MS.
 */
async function waitForFinalState(f: Finishing): ReturnType<typeof waitForTask> {
  const { session } = f;
  const { store, log } = session;
  const record = f.record;
  let saved = { status: f.state.status, taskId: f.state.taskId, at: performance.now() };
  showProgress(f, f.state, 'waiting');
  return await waitForTask(session, record, f.state, f.options, async (next) => {
    f.state = next;
    showProgress(f, next, 'waiting');
    const statusChanged = next.status !== saved.status || next.taskId !== saved.taskId;
    if (statusChanged)
      log.info(
        {
          id: record.id,
          kind: record.kind,
          taskId: next.taskId,
          status: next.status,
          writeCount: next.writeCount,
          totalCount: next.totalCount,
        },
        'report task state',
      );
    // the task id at once (a restart needs it); a final state is written by end() right after
    const write =
      next.taskId !== saved.taskId ||
      (!FINAL_STATUSES.has(next.status ?? '') &&
        (statusChanged || performance.now() - saved.at >= PROGRESS_WRITE_MS));
    if (write) {
      await store.update(record.id, statePatch(next));
      saved = { status: next.status, taskId: next.taskId, at: performance.now() };
    }
  });
}

/** The deadline passed before a final state: the record stays pending, for `--resume`. */
async function endPastDeadline(f: Finishing): Promise<{ outcome: TaskOutcome; record: TaskRecord }> {
  const { state, record } = f;
  const message = `still ${state.status ?? 'CREATED'}${state.totalCount !== null ? ` (${state.writeCount ?? 0} of ${state.totalCount} rows written)` : ''} when the deadline passed; it stays pending: \`reporter-etl platform-report --resume\` finishes it`;
  f.session.log.warn(
    { id: record.id, kind: record.kind, taskId: state.taskId, status: state.status },
    'deadline passed; the task stays pending',
  );
  return await endTask(f, { ...statePatch(state), status: 'pending', error: message });
}

/** A final state: completed (its file downloaded and verified, or its link expired), deleted, or failed. */
async function endInFinalState(f: Finishing): Promise<{ outcome: TaskOutcome; record: TaskRecord }> {
  const { session } = f;
  const { log } = session;
  switch (f.state.status) {
    case 'COMPLETED': {
      showProgress(f, f.state, 'downloading');
      try {
        const file = await downloadVerified(session, f.record, f.state, f.options.outDir);
        f.state = file.state;
        showProgress(f, f.state, 'done');
        log.info(
          { id: f.record.id, kind: f.record.kind, taskId: f.state.taskId, rows: file.rows, file: file.path },
          'report downloaded',
        );
        return await endTask(f, {
          ...statePatch(f.state),
          status: 'completed',
          filePath: file.path,
          fileRows: file.rows,
          error: null,
        });
      } catch (error) {
        if (!(error instanceof EtlError) || error.code !== URL_EXPIRED) throw error;
        log.warn(
          { id: f.record.id, kind: f.record.kind, taskId: f.state.taskId },
          'the file link expired (410)',
        );
        return await endTask(f, {
          ...statePatch(f.state),
          status: 'expired',
          error: f.requestAgain
            ? `${error.message}; the report is requested again`
            : `${error.message}; it was already requested again ${MAX_REREQUESTS} times in this run: try again later`,
        });
      }
    }
    case 'DELETED':
      return await endTask(f, {
        ...statePatch(f.state),
        status: 'deleted',
        error: 'the task was deleted on the platform',
      });
    default:
      return await endTask(f, {
        ...statePatch(f.state),
        status: 'failed',
        error: `the platform reports the task ${f.state.status}: ${f.state.error ?? 'no reason given (the task answer carries none)'}`,
      });
  }
}

/**
 * An error while finishing: a stop (signal) rethrows with the task released for the next run; a transient
 * fault leaves it pending; anything else fails it.
 */
async function endAfterError(
  f: Finishing,
  error: unknown,
  heartbeat: Heartbeat,
): Promise<{ outcome: TaskOutcome; record: TaskRecord }> {
  const { session, record, state } = f;
  const { store, log } = session;
  if (session.ctx.signal?.aborted) {
    // stopped (Ctrl-C, shutdown): the task stays open and free for the next run at once
    await heartbeat.stop();
    await store.release(record.id, session.ownerId).catch(() => undefined);
    throw error;
  }
  if (record.status === 'creating') {
    // sendCreate failed and has recorded why
    const stored = await store.get(record.id);
    if (stored) return { outcome: outcomeOf(stored), record: stored };
  }
  const message = error instanceof Error ? session.api.http.redact(error.message) : String(error);
  if (error instanceof EtlError && error.kind === 'transient') {
    log.warn({ id: record.id, kind: record.kind, reason: message }, 'the task stays pending');
    return await endTask(f, { ...statePatch(state), status: 'pending', error: message });
  }
  return await endTask(f, { ...statePatch(state), status: 'failed', error: message });
}

/** Finishes a record; an expired file link leads to a new request (recorded with `replaces`). */
export async function finishTask(
  session: ReportSession,
  record: TaskRecord,
  options: WaitOptions,
): Promise<TaskOutcome[]> {
  const outcomes: TaskOutcome[] = [];
  let current = record;
  for (let n = 0; ; n++) {
    const { outcome, record: done } = await finishOnce(session, current, options, n < MAX_REREQUESTS);
    outcomes.push(outcome);
    if (outcome.status !== 'expired' || n >= MAX_REREQUESTS) return outcomes;
    session.log.info({ id: done.id, kind: done.kind }, 'requesting the report again');
    try {
      current = await createTask(session, specOf(done), {
        outDir: options.outDir,
        replaces: done.id,
        ...(done.filePath === null ? {} : { filePath: done.filePath }),
      });
    } catch (error) {
      if (!(error instanceof EtlError) || error.kind === 'usage') throw error;
      outcomes.push({
        ...outcome,
        status: 'failed',
        error: `requesting the report again failed: ${error.message}`,
      });
      return outcomes;
    }
  }
}

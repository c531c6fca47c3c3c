// Applies async events to what is known of one report task. Events of other requests are ignored, the same
// event delivered twice (or an older one) changes nothing: an event counts only when its responseTime is
// after the last one applied, and the answer is taken in responseTime order. A pure function.
import { type AsyncEvent, parseAnswer, type ReportTaskDto, reportTaskSchema } from './report-schemas.js';

export interface TaskState {
  taskId: string | null;
  /** The platform's status (CREATED, STARTED, COMPLETED, FAILED, STOPPED, DELETED). */
  status: string | null;
  writeCount: number | null;
  totalCount: number | null;
  fileUrl: string | null;
  fileName: string | null;
  fileType: string | null;
  delimiter: string | null;
  withHeader: boolean | null;
  /** The platform's error when the task failed. */
  error: string | null;
  /** responseTime (epoch ms) of the last event applied. */
  lastEventTime: number | null;
}

/** Nothing known yet. */
export const UNKNOWN_TASK_STATE: TaskState = Object.freeze({
  taskId: null,
  status: null,
  writeCount: null,
  totalCount: null,
  fileUrl: null,
  fileName: null,
  fileType: null,
  delimiter: null,
  withHeader: null,
  error: null,
  lastEventTime: null,
});

export const FINAL_STATUSES: ReadonlySet<string> = new Set(['COMPLETED', 'FAILED', 'STOPPED', 'DELETED']);

/** The state after a task DTO (from an event payload or GET reports/tasks/{id}). */
export function applyTaskDto(state: TaskState, dto: ReportTaskDto): TaskState {
  return {
    ...state,
    taskId: dto.taskId,
    status: dto.status,
    writeCount: dto.writeCount ?? state.writeCount,
    totalCount: dto.totalCount ?? state.totalCount,
    fileUrl: dto.fileUrl ?? state.fileUrl,
    fileName: dto.fileName ?? state.fileName,
    fileType: dto.settings?.fileType ?? state.fileType,
    delimiter: dto.settings?.delimiter ?? state.delimiter,
    withHeader: dto.settings?.withHeader ?? state.withHeader,
  };
}

export function foldTaskEvents(
  state: TaskState,
  events: readonly AsyncEvent[],
  requestId: string,
): { state: TaskState; applied: number } {
  const mine = events
    .filter((e) => e.requestId === requestId)
    .sort((a, b) => a.responseTime - b.responseTime);
  let next = state;
  let applied = 0;
  for (const event of mine) {
    if (next.lastEventTime !== null && event.responseTime <= next.lastEventTime) continue;
    if (event.payload !== undefined && event.payload !== null) {
      next = applyTaskDto(next, parseAnswer(reportTaskSchema, event.payload, 'GET async/events (payload)'));
    }
    if (!event.isOk) {
      const platform = event.error?.message ?? event.error?.error ?? 'no error message';
      next = { ...next, status: 'FAILED', error: platform };
    }
    next = { ...next, lastEventTime: event.responseTime };
    applied++;
  }
  return { state: next, applied };
}

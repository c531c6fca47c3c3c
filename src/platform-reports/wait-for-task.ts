// Waits for a report task to reach a final state: on v1 by long-polling GET /api/v1/async/events with the
// requestId and startTime = the last responseTime applied; on legacy (or for a task known only by its id)
// by polling GET reports/tasks/{taskId} with a growing interval. Invariants: it stops at the deadline
// (real time) leaving the task as it is; every change of state is handed to onChange before the next poll.
import { EtlError } from '../errors.js';
import { applyTaskDto, FINAL_STATUSES, foldTaskEvents, type TaskState } from './fold-task-events.js';
import type { ReportSession } from './report-session.js';

export interface WaitResult {
  state: TaskState;
  /** The deadline passed before a final state. */
  timedOut: boolean;
}

const isFinal = (state: TaskState): boolean => state.status !== null && FINAL_STATUSES.has(state.status);

export async function waitForTask(
  session: ReportSession,
  target: { requestId: string | null; taskId: string | null },
  initial: TaskState,
  options: { deadline: number; pollSeconds: number },
  onChange: (state: TaskState) => Promise<void>,
): Promise<WaitResult> {
  let state = initial;
  const remaining = () => options.deadline - performance.now();
  let useEvents = session.api.api === 'v1' && target.requestId !== null;
  let interval = session.ctx.pollIntervalMs ?? 250;
  while (!isFinal(state)) {
    session.ctx.signal?.throwIfAborted();
    const left = remaining();
    if (left <= 0) return { state, timedOut: true };
    if (useEvents) {
      const timeout = Math.max(0, Math.min(options.pollSeconds, 30, Math.floor(left / 1000)));
      let events: Awaited<ReturnType<typeof session.api.events>>;
      try {
        events = await session.api.events(target.requestId!, timeout, state.lastEventTime ?? undefined);
      } catch (error) {
        if (!(error instanceof EtlError) || error.code !== 'reporter.not_found') throw error;
        const taskId = state.taskId ?? target.taskId;
        if (taskId === null)
          throw new EtlError(
            'platform_report.unknown_request',
            `the platform no longer knows request ${target.requestId} (GET async/events answered 404) and no task id was recorded for it`,
            { cause: error },
          );
        session.log.warn(
          { requestId: target.requestId, taskId },
          'the platform no longer knows the async request; polling the task instead',
        );
        useEvents = false;
        continue;
      }
      const folded = foldTaskEvents(state, events, target.requestId!);
      if (folded.applied > 0) {
        state = folded.state;
        await onChange(state);
      } else if (timeout === 0) {
        await session.sleep(Math.min(interval, Math.max(0, remaining())));
        interval = Math.min(interval * 1.5, 5_000);
      }
      continue;
    }
    const taskId = state.taskId ?? target.taskId;
    if (taskId === null)
      throw new EtlError(
        'platform_report.unknown_task',
        'no task id is known for this report: it cannot be polled',
      );
    let dto: Awaited<ReturnType<typeof session.api.getTask>>;
    try {
      dto = await session.api.getTask(taskId);
    } catch (error) {
      if (error instanceof EtlError && error.code === 'reporter.not_found')
        throw new EtlError(
          'platform_report.unknown_task',
          `task ${taskId} no longer exists on the platform (GET reports/tasks/${taskId} answered 404)`,
          { cause: error },
        );
      throw error;
    }
    const next = applyTaskDto(state, dto);
    const changed =
      next.status !== state.status || next.writeCount !== state.writeCount || next.taskId !== state.taskId;
    state = next;
    if (changed) await onChange(state);
    if (isFinal(state)) break;
    await session.sleep(Math.min(interval, Math.max(0, remaining())));
    interval = Math.min(interval * 1.5, 5_000);
  }
  return { state, timedOut: false };
}

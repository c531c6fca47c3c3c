// `platform-report delete <taskId> | --completed | --all`: deletes report tasks on the platform and records it
// in platform_report_tasks (platform_status DELETED; open records become deleted, so no resume waits for
// them). Downloaded files stay. Invariants: the table changes only for tasks the platform no longer lists;
// open v1 records that know only their request learn their task id first, so they are matched too.
import { EtlError } from '../errors.js';
import { foldTaskEvents, UNKNOWN_TASK_STATE } from './fold-task-events.js';
import { openReportSession, type PlatformReportContext, type ReportSession } from './report-session.js';

export type DeleteTarget = { taskId: string } | 'completed' | 'all';

/** Asks the async events (without waiting) for the task ids of open records that have none yet. */
async function learnTaskIds(session: ReportSession): Promise<void> {
  if (session.scope.api !== 'v1') return;
  for (const record of await session.store.listOpen(session.scope)) {
    if (record.taskId !== null || record.requestId === null) continue;
    try {
      const events = await session.api.events(record.requestId, 0, undefined);
      const { state } = foldTaskEvents(UNKNOWN_TASK_STATE, events, record.requestId);
      if (state.taskId !== null) await session.store.update(record.id, { taskId: state.taskId });
    } catch (error) {
      if (!(error instanceof EtlError) || error.code !== 'reporter.not_found') throw error;
    }
  }
}

export async function deletePlatformReports(
  ctx: PlatformReportContext,
  target: DeleteTarget,
): Promise<{ project: string; deleted: string[] }> {
  const session = await openReportSession(ctx);
  try {
    const { api, store, scope } = session;
    await learnTaskIds(session);
    if (typeof target === 'object') {
      await api.deleteTask(target.taskId);
      await store.markDeleted(scope.baseUrl, [target.taskId]);
      return { project: session.project, deleted: [target.taskId] };
    }
    const before = await api.listTasks();
    if (target === 'all') await api.deleteAll();
    else await api.deleteCompleted();
    const left = new Set((await api.listTasks()).map((t) => t.taskId));
    const deleted = before.map((t) => t.taskId).filter((id) => !left.has(id));
    await store.markDeleted(scope.baseUrl, deleted);
    return { project: session.project, deleted };
  } finally {
    await session.close();
  }
}

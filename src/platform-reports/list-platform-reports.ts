// `platform-report list`: the report tasks on the platform (GET reports) next to the records of
// platform_report_tasks for the same platform and project. Invariant: file URLs are left out of what is
// returned (on the legacy generation they carry the token in their path).
import { openReportSession, type PlatformReportContext } from './report-session.js';
import type { TaskRecord } from './task-store.js';

export interface PlatformTask {
  taskId: string;
  reportType: string | null;
  status: string;
  creationTime: string | null;
  writeCount: number | null;
  totalCount: number | null;
  fileName: string | null;
  /** The local record of this task, if one exists. */
  recordId: string | null;
}

export interface PlatformReportList {
  project: string;
  platform: PlatformTask[];
  table: Omit<TaskRecord, 'request' | 'tasksBefore'>[];
}

export async function listPlatformReports(
  ctx: PlatformReportContext,
  options: { limit?: number } = {},
): Promise<PlatformReportList> {
  const session = await openReportSession(ctx);
  try {
    const [tasks, records] = await Promise.all([
      session.api.listTasks(),
      session.store.list(session.scope, options.limit ?? 100),
    ]);
    const byTask = new Map(records.filter((r) => r.taskId !== null).map((r) => [r.taskId!, r.id]));
    return {
      project: session.project,
      platform: tasks.map((t) => ({
        taskId: t.taskId,
        reportType: t.reportType ?? null,
        status: t.status,
        creationTime: t.creationTime == null ? null : new Date(t.creationTime).toISOString(),
        writeCount: t.writeCount ?? null,
        totalCount: t.totalCount ?? null,
        fileName: t.fileName ?? null,
        recordId: byTask.get(t.taskId) ?? null,
      })),
      table: records.map(({ request: _request, tasksBefore: _before, ...rest }) => rest),
    };
  } finally {
    await session.close();
  }
}

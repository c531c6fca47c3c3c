// Listing and deleting report tasks (both generations, under the reporter prefix): GET|DELETE reports,
// DELETE reports/all, GET|DELETE reports/tasks/{reportGenerationTaskId}, and the file download route.
// Invariant: every operation sees only the tasks of the caller's account; unknown ids are a 404 ErrorDto.
import type { Route } from '../route.js';
import { downloadReportFile } from './report-download.js';
import type { ReportTasks } from './report-tasks.js';
import { taskDto } from './report-types.js';

export function taskRoutes(tasks: ReportTasks): Route[] {
  return [
    {
      method: 'GET',
      path: 'reports',
      op: 'getNotDeletedReportGenerationTasks',
      handler: (ctx) => ({ body: { tasks: tasks.list(ctx.project.accountId).map(taskDto) } }),
    },
    {
      method: 'DELETE',
      path: 'reports',
      op: 'deleteCompletedReportGenerationTasks',
      write: true,
      handler(ctx) {
        for (const task of tasks.list(ctx.project.accountId))
          if (task.status === 'COMPLETED') tasks.delete(task);
        return { status: 200 };
      },
    },
    {
      method: 'DELETE',
      path: 'reports/all',
      op: 'deleteAllReportGenerationTasks',
      write: true,
      handler(ctx) {
        for (const task of tasks.list(ctx.project.accountId)) tasks.delete(task);
        return { status: 200 };
      },
    },
    {
      method: 'GET',
      path: 'reports/tasks/{reportGenerationTaskId}',
      op: 'getReportGenerationTask',
      handler: (ctx) => ({
        body: taskDto(tasks.find(ctx.project.accountId, ctx.params['reportGenerationTaskId']!)),
      }),
    },
    {
      method: 'DELETE',
      path: 'reports/tasks/{reportGenerationTaskId}',
      op: 'deleteReportGenerationTask',
      write: true,
      handler(ctx) {
        tasks.delete(tasks.find(ctx.project.accountId, ctx.params['reportGenerationTaskId']!));
        return { status: 200 };
      },
    },
    {
      method: 'GET',
      path: 'reports/files/{taskId}/{fileName}',
      op: 'downloadReportFile',
      handler: (ctx) => downloadReportFile(tasks, ctx),
    },
  ];
}

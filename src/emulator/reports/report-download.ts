// Downloading a completed report's file (the task's fileUrl), with the auth of the generation it is
// called under. Invariants: only the owner account's COMPLETED task with that exact file name is served;
// after reportUrlTtlMs of real time since completion, or under the 'expiredUrl' fault, the answer is 410.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../api-error.js';
import type { RouteContext, RouteResult } from '../route.js';
import type { ReportTasks } from './report-tasks.js';

const CONTENT_TYPES = {
  CSV: 'text/csv; charset=utf-8',
  XLSX: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

export async function downloadReportFile(tasks: ReportTasks, ctx: RouteContext): Promise<RouteResult> {
  const taskId = ctx.params['taskId']!;
  const fileName = ctx.params['fileName']!;
  const task = tasks.find(ctx.project.accountId, taskId);
  if (task.status !== 'COMPLETED' || task.fileName !== fileName || task.filePath === undefined) {
    throw new ApiError(
      404,
      'reporter.not_found.report_file',
      `report file ${fileName} of task ${taskId} not found`,
      { taskId, fileName },
    );
  }
  const age = Date.now() - (task.completedAt ?? 0);
  const forced = ctx.emulator.faults.take(['expiredUrl'], { path: ctx.path, method: ctx.method });
  if (forced || age > ctx.emulator.options.reportUrlTtlMs) {
    throw new ApiError(
      410,
      'reporter.gone.report_url_expired',
      `the link to report file ${fileName} has expired; create the report again`,
      { taskId, fileName },
    );
  }
  const { size } = await stat(task.filePath);
  ctx.res.writeHead(200, {
    'content-type': CONTENT_TYPES[task.settings.fileType],
    'content-length': size,
    'content-disposition': `attachment; filename="${fileName}"`,
  });
  await pipeline(createReadStream(task.filePath), ctx.res);
  return { raw: true };
}

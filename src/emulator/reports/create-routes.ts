// The create-report operations. v1: POST async:reporter/reports/{kind} answers AsyncTaskDto {requestId,
// requestTime} (client-list: 200, no body, headers Z-Request-id and Z-Request-time). Legacy: POST
// reports/{kind} answers the ReportGenerationTaskDto (CREATED) at once. The v1 reporter prefix answers the
// same paths as aliases of the async operations (the seed's short form POST /reporter/reports/messages).
import type { Route, RouteContext, RouteResult } from '../route.js';
import { reportSource } from './report-sources.js';
import type { ReportTasks } from './report-tasks.js';
import { REPORT_KINDS, type ReportKind, taskDto } from './report-types.js';

const OPERATIONS: Readonly<Record<ReportKind, string>> = {
  sessions: 'createSessionReport',
  messages: 'createMessageReport',
  clients: 'createClientReport',
  telephony: 'createTelephonyReport',
  daily: 'createDailyReport',
  'client-list': 'createClientListReport',
  'message-reaction': 'createMessageReactionReport',
};

function createAsync(tasks: ReportTasks, kind: ReportKind, ctx: RouteContext): RouteResult {
  const task = tasks.create(ctx, kind, reportSource(kind, ctx), { async: true });
  const requestId = task.requestId!;
  const requestTime = new Date(task.requestTime!).toISOString();
  if (kind === 'client-list')
    return { status: 200, headers: { 'Z-Request-id': requestId, 'Z-Request-time': requestTime } };
  return { body: { requestId, requestTime } };
}

function createLegacy(tasks: ReportTasks, kind: ReportKind, ctx: RouteContext): RouteResult {
  const task = tasks.create(ctx, kind, reportSource(kind, ctx), { async: false });
  return { body: taskDto(task) };
}

export function createRoutes(tasks: ReportTasks): Route[] {
  return REPORT_KINDS.flatMap((kind): Route[] => [
    {
      method: 'POST',
      path: `async:reporter/reports/${kind}`,
      op: OPERATIONS[kind],
      generations: ['v1'],
      handler: (ctx) => createAsync(tasks, kind, ctx),
    },
    {
      method: 'POST',
      path: `reports/${kind}`,
      op: OPERATIONS[kind],
      // message-reaction exists only in the current generation
      generations: kind === 'message-reaction' ? ['v1'] : ['v1', 'legacy'],
      handler: (ctx) =>
        ctx.generation === 'legacy' ? createLegacy(tasks, kind, ctx) : createAsync(tasks, kind, ctx),
    },
  ]);
}

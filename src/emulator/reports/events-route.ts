// GET async:events (v1 only): the long poll of async events, `requestId?`, `timeout` (seconds 0..30, default
// 3) and `startTime` (epoch ms, events after it). Invariants: the call blocks without polling until a
// matching event is appended, the timeout passes, the client goes away or the emulator closes; the
// 'duplicateEvent' fault delivers one event twice in the same answer.
import { ApiError } from '../api-error.js';
import { queryInt, queryString } from '../params.js';
import type { Route } from '../route.js';
import { eventDto } from './async-events.js';
import type { ReportTasks } from './report-tasks.js';

export function eventsRoute(tasks: ReportTasks): Route {
  return {
    method: 'GET',
    path: 'async:events',
    op: 'getAsyncRequest',
    generations: ['v1'],
    async handler(ctx) {
      const requestId = queryString(ctx.query, 'requestId');
      const timeout = queryInt(ctx.query, 'timeout', { default: 3, min: 0, max: 30 })!;
      const after = queryInt(ctx.query, 'startTime', { min: 0 });
      const accountId = ctx.project.accountId;
      if (requestId !== undefined && !tasks.events.knows(requestId, accountId)) {
        throw new ApiError(404, 'reporter.not_found.async_request', `async request ${requestId} not found`, {
          requestId,
        });
      }
      const gone = new AbortController();
      const onClose = () => gone.abort();
      ctx.res.once('close', onClose);
      const query = {
        accountId,
        ...(requestId === undefined ? {} : { requestId }),
        ...(after === undefined ? {} : { after }),
      };
      const events = await tasks.events.wait(query, timeout * 1000, gone.signal);
      ctx.res.off('close', onClose);
      if (gone.signal.aborted || ctx.res.destroyed) return { raw: true };
      const response = events.map(eventDto);
      if (
        response.length > 0 &&
        ctx.emulator.faults.take(['duplicateEvent'], { path: ctx.path, method: ctx.method })
      ) {
        response.splice(1, 0, { ...response[0]! });
      }
      return { body: { response } };
    },
  };
}

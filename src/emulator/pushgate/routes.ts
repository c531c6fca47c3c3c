// The Pushgate operation: `GET|POST {base}/pushgate/push_{pushbackId}` fires the pushback's event (POST with a
// JSON object body: with data for the bot's script). 200 `{}`; an unknown or deleted pushback 404
// `{error, message}`. No other authentication: the pushback id in the path is the secret.
import { ApiError } from '../api-error.js';
import type { Route, RouteContext } from '../route.js';

function fire(ctx: RouteContext) {
  const method = ctx.method === 'POST' ? 'POST' : 'GET';
  if (method === 'POST' && ctx.body !== undefined) {
    const type = String(ctx.headers['content-type'] ?? '');
    if (!/^application\/json\b/i.test(type))
      throw new ApiError(400, 'pushgate.bad_request.content_type', 'a body must be sent as application/json');
    if (typeof ctx.body !== 'object' || ctx.body === null || Array.isArray(ctx.body))
      throw new ApiError(400, 'pushgate.bad_request.body', 'the body must be a JSON object');
  }
  ctx.emulator.pushgate.push(ctx.token, method, ctx.body);
  return { body: {} };
}

/** Paths relative to `/pushgate/push_{pushbackId}` (the id is taken by the server as the token). */
export function pushgateRoutes(): Route[] {
  return [
    { method: 'GET', path: '', op: 'pushGet', handler: fire },
    { method: 'POST', path: '', op: 'pushPost', handler: fire },
  ];
}

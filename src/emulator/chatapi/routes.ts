// The Chat API operations under `{base}/chatapi/{token}` (and `/chatadapter/chatapi/{token}`): the
// synchronous request (POST and GET), the asynchronous one (answer by webhook), the events long poll, a
// client's history, saved state, message statuses and the not-read count. Paths are relative to the token.
// Timestamps are written as a local date-time with milliseconds and no zone, in UTC.
import { ApiError } from '../api-error.js';
import { parseDateTime } from '../filters.js';
import { queryBool, queryInt, queryString } from '../params.js';
import type { Route, RouteContext } from '../route.js';
import type { ChatChannel, ChatEvent, ChatRequest, HistoryEntry } from './chat-api.js';
import { CHAT_STATUSES, type ChatStatusValue, chatStatusAt, isChatStatus } from './chat-statuses.js';

/** A Chat API time on the wire: `2026-11-01T10:00:00.123` (UTC, no zone). */
export const chatTime = (t: number): string => new Date(t).toISOString().slice(0, 23);

const HISTORY_PAGE_CAP = 100;

function bad(parameter: string, message: string): ApiError {
  return new ApiError(400, 'chatapi.bad_request.invalid_parameter', `${parameter}: ${message}`, {
    parameter,
  });
}

function channelOf(ctx: RouteContext): ChatChannel {
  return ctx.emulator.chatApi.channel(ctx.token);
}

function objectBody(ctx: RouteContext): Record<string, unknown> {
  const body = ctx.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw bad('body', 'expected a JSON object');
  return body as Record<string, unknown>;
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value === '') throw bad(name, 'expected a non-empty string');
  return value;
}

/** The request of operations 6 to 8: clientId, exactly one of query and event, data?, cid?. */
function chatRequest(fields: Record<string, unknown>): ChatRequest {
  const clientId = optionalString(fields['clientId'], 'clientId');
  if (clientId === undefined) throw bad('clientId', 'required');
  const query = fields['query'] === undefined || fields['query'] === null ? undefined : fields['query'];
  if (query !== undefined && typeof query !== 'string') throw bad('query', 'expected a string');
  const event = optionalString(fields['event'], 'event');
  if ((query === undefined) === (event === undefined))
    throw bad('query', 'give exactly one of query and event');
  const data = fields['data'];
  if (data !== undefined && (typeof data !== 'object' || data === null || Array.isArray(data)))
    throw bad('data', 'expected a JSON object');
  const cid = optionalString(fields['cid'], 'cid');
  return {
    clientId,
    ...(query === undefined ? {} : { query }),
    ...(event === undefined ? {} : { event }),
    ...(data === undefined ? {} : { data: data as Record<string, unknown> }),
    ...(cid === undefined ? {} : { cid }),
  };
}

/** The payload with its timestamp on the wire. */
function wirePayload(payload: Record<string, unknown>): Record<string, unknown> {
  return { ...payload, timestamp: chatTime(payload['timestamp'] as number) };
}

function historyDto(entry: HistoryEntry): Record<string, unknown> {
  const { at, questionId, ...rest } = entry;
  return { questionId, timestamp: chatTime(at), ...rest };
}

function eventDto(event: ChatEvent): Record<string, unknown> {
  return {
    type: event.type,
    clientId: event.clientId,
    ...(event.cid === undefined ? {} : { cid: event.cid }),
    questionId: event.questionId,
    timestamp: chatTime(event.at),
    event: event.event,
  };
}

/** The client of the path, known on this channel, or 404. */
function clientOf(ctx: RouteContext, channel: ChatChannel): number {
  const clientId = ctx.params['clientId']!;
  const c = ctx.emulator.chatApi.clientIndex(channel, clientId);
  if (c === undefined)
    throw new ApiError(404, 'chatapi.not_found.client', `client ${clientId} not found on this channel`, {
      clientId,
    });
  return c;
}

function answeredOf(ctx: RouteContext, channel: ChatChannel, c: number, questionId: string) {
  const at = ctx.emulator.chatApi.answeredMessage(channel, c, questionId, ctx.now);
  if (!at)
    throw new ApiError(404, 'chatapi.not_found.message', `message ${questionId} not found for this client`, {
      questionId,
    });
  return at;
}

function statusOf(ctx: RouteContext, channel: ChatChannel, questionId: string): ChatStatusValue | undefined {
  const { i, k } = answeredOf(ctx, channel, clientOf(ctx, channel), questionId);
  return chatStatusAt(channel.project, ctx.emulator.chatApi.statuses, i, k, ctx.now);
}

export function chatApiRoutes(): Route[] {
  return [...listQueryRoutes(), ...listEventRoutes(), ...listClientRoutes(), ...listMessageStatusRoutes()];
}

// the requests: synchronous (POST and GET) and asynchronous (answered by webhook)
function listQueryRoutes(): Route[] {
  return [
    {
      method: 'POST',
      path: '',
      op: 'chatApiQuery',
      handler(ctx) {
        const channel = channelOf(ctx);
        const payload = ctx.emulator.chatApi.converse(channel, chatRequest(objectBody(ctx)), ctx.now);
        return { body: wirePayload(payload) };
      },
    },
    {
      method: 'GET',
      path: '',
      op: 'chatApiQueryGet',
      handler(ctx) {
        const channel = channelOf(ctx);
        const fields = Object.fromEntries(ctx.query.entries());
        const request = chatRequest(fields);
        const payload = ctx.emulator.chatApi.converse(channel, request, ctx.now);
        return {
          body: {
            clientId: request.clientId,
            query: request.query ?? null,
            event: request.event ?? null,
            questionId: payload['questionId'],
            timestamp: chatTime(payload['timestamp'] as number),
            data: payload['data'],
            ...(request.cid === undefined ? {} : { cid: request.cid }),
          },
        };
      },
    },
    {
      method: 'POST',
      path: 'async',
      op: 'chatApiAsync',
      handler(ctx) {
        const channel = channelOf(ctx);
        const request = chatRequest(objectBody(ctx));
        const questionId = ctx.emulator.chatApi.converseAsync(channel, request, ctx.now, wirePayload);
        return { body: { questionId } };
      },
    },
  ];
}

// the events long poll
function listEventRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: 'events',
      op: 'chatApiEvents',
      async handler(ctx) {
        const channel = channelOf(ctx);
        const all = queryBool(ctx.query, 'all');
        const ts = queryInt(ctx.query, 'ts', { min: 0 });
        const cid = queryString(ctx.query, 'cid');
        const chat = ctx.emulator.chatApi;
        const gone = new AbortController();
        const onClose = () => gone.abort();
        ctx.res.once('close', onClose);
        // while it waits, the events are looked for again only after the clock or the data changed
        let looked = '';
        const events = await chat.waitForEvents(
          () => {
            const now = ctx.emulator.now();
            const stamp = `${now}|${channel.project.state.version}`;
            if (stamp === looked) return [];
            looked = stamp;
            const query = { all, ...(ts === undefined ? {} : { ts }), ...(cid === undefined ? {} : { cid }) };
            return chat.takeEvents(channel, query, now);
          },
          chat.settings.eventsMaxWaitMs,
          gone.signal,
        );
        ctx.res.off('close', onClose);
        if (gone.signal.aborted || ctx.res.destroyed) return { raw: true };
        return { body: { events: events.map(eventDto) } };
      },
    },
  ];
}

// a client's history and saved state
function listClientRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: 'client/{clientId}/history',
      op: 'chatApiHistory',
      handler(ctx) {
        const channel = channelOf(ctx);
        const clientId = ctx.params['clientId']!;
        const start = queryString(ctx.query, 'startTime');
        const end = queryString(ctx.query, 'endTime');
        const from = start === undefined ? Number.NEGATIVE_INFINITY : parseDateTime(start, 'startTime');
        const to = end === undefined ? Number.POSITIVE_INFINITY : parseDateTime(end, 'endTime');
        const page = queryInt(ctx.query, 'page', { default: 0, min: 0 })!;
        const size = Math.min(HISTORY_PAGE_CAP, queryInt(ctx.query, 'size', { default: 20, min: 1 })!);
        const chat = ctx.emulator.chatApi;
        const c = chat.clientIndex(channel, clientId);
        const all = c === undefined ? [] : chat.history(channel, c, ctx.now);
        const inWindow = all.filter((m) => m.at >= from && m.at < to);
        return {
          body: {
            clientId,
            paging: { page, size, totalCount: inWindow.length },
            messages: inWindow.slice(page * size, page * size + size).map(historyDto),
          },
        };
      },
    },
    {
      method: 'POST',
      path: 'client/{clientId}/state',
      op: 'chatApiSaveState',
      handler(ctx) {
        const channel = channelOf(ctx);
        channel.states.set(ctx.params['clientId']!, structuredClone(objectBody(ctx)));
        return { body: {} };
      },
    },
    {
      method: 'GET',
      path: 'client/{clientId}/state',
      op: 'chatApiLoadState',
      handler(ctx) {
        const channel = channelOf(ctx);
        return { body: channel.states.get(ctx.params['clientId']!) ?? {} };
      },
    },
  ];
}

// message statuses (one, several) and the not-read count
function listMessageStatusRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: 'client/{clientId}/message/{questionId}/status',
      op: 'chatApiMessageStatus',
      handler(ctx) {
        const channel = channelOf(ctx);
        const questionId = ctx.params['questionId']!;
        return { body: { questionId, status: statusOf(ctx, channel, questionId) ?? null } };
      },
    },
    {
      method: 'POST',
      path: 'client/{clientId}/message/{questionId}/status',
      op: 'chatApiSetMessageStatus',
      handler(ctx) {
        const channel = channelOf(ctx);
        const questionId = ctx.params['questionId']!;
        const status = objectBody(ctx)['status'];
        if (!isChatStatus(status)) throw bad('status', `expected one of ${CHAT_STATUSES.join(', ')}`);
        answeredOf(ctx, channel, clientOf(ctx, channel), questionId);
        ctx.emulator.chatApi.setStatus(channel, questionId, status);
        return { body: { questionId, status } };
      },
    },
    {
      method: 'POST',
      path: 'client/{clientId}/message-statuses',
      op: 'chatApiSetMessageStatuses',
      handler(ctx) {
        const channel = channelOf(ctx);
        const statuses = objectBody(ctx)['statuses'];
        if (!Array.isArray(statuses)) throw bad('statuses', 'expected an array');
        const c = clientOf(ctx, channel);
        const checked = statuses.map((element: unknown, n) => {
          const name = `statuses[${n}]`;
          if (typeof element !== 'object' || element === null) throw bad(name, 'expected an object');
          const { questionId, status } = element as Record<string, unknown>;
          if (typeof questionId !== 'string') throw bad(`${name}.questionId`, 'expected a string');
          if (!isChatStatus(status))
            throw bad(`${name}.status`, `expected one of ${CHAT_STATUSES.join(', ')}`);
          if (!ctx.emulator.chatApi.answeredMessage(channel, c, questionId, ctx.now))
            throw bad(`${name}.questionId`, `message ${questionId} not found for this client`);
          return { questionId, status };
        });
        for (const { questionId, status } of checked)
          ctx.emulator.chatApi.setStatus(channel, questionId, status);
        return { body: { updated: checked.length } };
      },
    },
    {
      method: 'GET',
      path: 'client/{clientId}/message-not-read-count',
      op: 'chatApiNotReadCount',
      handler(ctx) {
        const channel = channelOf(ctx);
        const chat = ctx.emulator.chatApi;
        const c = chat.clientIndex(channel, ctx.params['clientId']!);
        return { body: { count: c === undefined ? 0 : chat.notReadCount(channel, c, ctx.now) } };
      },
    },
  ];
}

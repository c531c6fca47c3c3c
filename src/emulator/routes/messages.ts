// Message operations: messages/filter (paged ExtendedMessage, no delivery status), messages/by-session
// and by-client (Message with status), page-in-session and page-in-client.
import { badParameter, notFound } from '../api-error.js';
import { normaliseChannel } from '../filters.js';
import { queryBool, queryDateTime, queryEnum, queryString, requiredString } from '../params.js';
import type { ProjectData } from '../project-data.js';
import { type MessageRef, selectMessages } from '../query.js';
import { pageOf, pageSizeOf, type Route, type RouteContext, readRoute } from '../route.js';
import { pagedFilterRoute } from './paged-filter-route.js';
import { sessionForWire } from './sessions.js';

function sessionOrFail(ctx: RouteContext, sessionId: string): number {
  const i = ctx.project.sessionIndex(sessionId);
  if (i === undefined || ctx.project.skeleton.start.get(i) > ctx.now || ctx.project.withheld.has(i))
    throw notFound('session', sessionId);
  const botId = queryString(ctx.query, 'botId');
  if (botId !== undefined && ctx.project.botIdOf(i) !== botId)
    throw notFound('session', `${sessionId} of bot ${botId}`);
  return i;
}

function clientOrFail(ctx: RouteContext): number {
  const clientId = requiredString(ctx.query, 'clientId');
  const botId = requiredString(ctx.query, 'botId');
  const c = ctx.project.clientIndex(clientId);
  if (c === undefined || ctx.project.skeleton.start.get(ctx.project.skeleton.clientCreator.get(c)) > ctx.now)
    throw notFound('client', clientId);
  if (!ctx.project.botIds.includes(botId)) throw notFound('bot', botId);
  return c;
}

/** A session's visible messages in time order, with the by-session options applied. */
function sessionMessages(ctx: RouteContext, i: number): number[] {
  const p = ctx.project;
  const startTime = queryDateTime(ctx.query, 'startTime');
  const hideEmpty = queryBool(ctx.query, 'hideEmptyMessage');
  const out: number[] = [];
  const visible = p.skeleton.visibleMessageCount(i, ctx.now);
  for (let k = 0; k < visible; k++) {
    if (startTime !== undefined && p.skeleton.messageTime(i, k) < startTime) continue;
    if (hideEmpty && p.messageFacts(i, k).question === undefined) continue;
    out.push(k);
  }
  return out;
}

/** A client's messages, newest first unless sort=asc, with the by-client options applied. */
function clientMessages(
  ctx: RouteContext,
  p: ProjectData,
  c: number,
  options: { filterTimes: boolean },
): MessageRef[] {
  const sk = p.skeleton;
  const startTime = options.filterTimes ? queryDateTime(ctx.query, 'startTime') : undefined;
  const endTime =
    options.filterTimes && ctx.generation === 'v1' ? queryDateTime(ctx.query, 'endTime') : undefined;
  const channelType = ctx.generation === 'v1' ? queryString(ctx.query, 'channelType') : undefined;
  const questionId =
    options.filterTimes && ctx.generation === 'v1' ? queryString(ctx.query, 'questionId') : undefined;
  const out: MessageRef[] = [];
  if (channelType !== undefined && normaliseChannel(channelType) !== p.channelOf(sk.clientCreator.get(c)))
    return out;
  // the client's sessions, oldest first, from the links of each session to the client's previous one
  const sessions: number[] = [];
  for (let i = p.lastSessionOf(c, ctx.now); i >= 0; i = sk.previousOfClient.get(i)) sessions.push(i);
  sessions.reverse();
  for (const i of sessions) {
    if (p.withheld.has(i)) continue;
    const visible = sk.visibleMessageCount(i, ctx.now);
    for (let k = 0; k < visible; k++) {
      const t = sk.messageTime(i, k);
      if (startTime !== undefined && t < startTime) continue;
      if (endTime !== undefined && t > endTime) continue;
      if (questionId !== undefined && p.questionId(i, k) !== questionId) continue;
      out.push({ i, k });
    }
  }
  const sort =
    ctx.generation === 'v1' ? queryEnum(ctx.query, 'sort', ['asc', 'desc'] as const, 'desc') : 'desc';
  if (sort === 'desc') out.reverse();
  return out;
}

/** messages/by-session also answers POST (the seed documents' form), with parameters in the query or body. */
function mergeBodyIntoQuery(ctx: RouteContext): void {
  if (ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body)) {
    for (const [key, value] of Object.entries(ctx.body as Record<string, unknown>)) {
      if (!ctx.query.has(key) && value !== undefined && value !== null) ctx.query.set(key, String(value));
    }
  }
}

function bySession(ctx: RouteContext) {
  const i = sessionOrFail(ctx, requiredString(ctx.query, 'sessionId'));
  const rows = sessionMessages(ctx, i);
  const { paging, items } = pageOf(ctx, rows);
  const data = ctx.generation === 'v1';
  return {
    body: {
      paging,
      session: sessionForWire(ctx, ctx.project, i, { data, labels: true }),
      messages: items.map((k) => ctx.project.messageRecord(i, k, ctx.now)),
    },
  };
}

export function messageRoutes(): Route[] {
  return [
    pagedFilterRoute({
      path: 'messages/filter',
      op: 'getMessageDataByFilter',
      key: 'messages',
      select: (ctx, filters) => selectMessages(ctx.project, filters, ctx.now),
      // page drift holds back the sessions of the newest messages
      sessionOf: (r) => r.i,
      record: (ctx) => (r) => ctx.project.extendedMessageRecord(r.i, r.k, ctx.now),
    }),
    { method: 'GET', path: 'messages/by-session', op: 'getMessagesForSession', handler: bySession },
    {
      method: 'POST',
      path: 'messages/by-session',
      op: 'getMessagesForSession',
      generations: ['v1'],
      handler(ctx) {
        mergeBodyIntoQuery(ctx);
        return bySession(ctx);
      },
    },
    {
      method: 'GET',
      path: 'messages/by-client',
      op: 'getMessagesForClient',
      handler(ctx) {
        const c = clientOrFail(ctx);
        const rows = clientMessages(ctx, ctx.project, c, { filterTimes: true });
        const { paging, items } = pageOf(ctx, rows);
        return {
          body: {
            paging,
            client: ctx.project.clientRecord(c, ctx.now),
            messages: items.map((r) => ctx.project.messageRecord(r.i, r.k, ctx.now)),
          },
        };
      },
    },
    readRoute('GET', 'messages/page-in-session', 'getMessagePageInSession', (ctx) => {
      const i = sessionOrFail(ctx, requiredString(ctx.query, 'sessionId'));
      const questionId = requiredString(ctx.query, 'questionId');
      const size = pageSizeOf(ctx);
      const at = ctx.project.messageIndex(questionId);
      if (!at || at.i !== i || ctx.project.skeleton.messageTime(i, at.k) > ctx.now)
        throw notFound('message', questionId);
      return { pageNumber: Math.floor(at.k / size) };
    }),
    readRoute('GET', 'messages/page-in-client', 'getMessagePageInClient', (ctx) => {
      const c = clientOrFail(ctx);
      const questionId = requiredString(ctx.query, 'questionId');
      const size = pageSizeOf(ctx);
      const rows = clientMessages(ctx, ctx.project, c, { filterTimes: false });
      const position = rows.findIndex((r) => ctx.project.questionId(r.i, r.k) === questionId);
      if (position < 0)
        throw badParameter(
          'questionId',
          `message ${questionId} is not a message of client ${ctx.query.get('clientId')}`,
        );
      return { pageNumber: Math.floor(position / size) };
    }),
  ];
}

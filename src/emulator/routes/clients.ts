// Client operations: clients/filter (paged ClientExtendedInfo by filters), clients/all-for-bot (the bot's
// clients who joined at or before dateTo), block and unblock. A client belongs to the bot of its first
// session; block state lives in ProjectState.blocks and shows in every later client record.
import { badParameter } from '../api-error.js';
import { queryDateTime, requiredString, requireInt, requireObject } from '../params.js';
import type { ProjectData } from '../project-data.js';
import { selectClients } from '../query.js';
import { type Route, type RouteContext, writeRoute } from '../route.js';
import { findClient, missing, optionalString } from './labels-lookup.js';
import { pagedFilterRoute } from './paged-filter-route.js';

/** The bot a client belongs to: the bot of the client's first session. */
function botOfClient(p: ProjectData, c: number): string {
  return p.botIdOf(p.skeleton.clientCreator.get(c));
}

function requireBot(ctx: RouteContext): string {
  const botId = requiredString(ctx.query, 'botId');
  if (!ctx.project.botIds.includes(botId)) throw missing('botId', 'bot', botId);
  return botId;
}

/** `botId` and `clientId` of block/unblock: the client must exist and belong to that bot. */
function clientOfBot(ctx: RouteContext): number {
  const botId = requireBot(ctx);
  const clientId = requiredString(ctx.query, 'clientId');
  const c = findClient(ctx.project, clientId, ctx.now);
  if (c === undefined || botOfClient(ctx.project, c) !== botId)
    throw missing('clientId', `client of bot ${botId}`, clientId);
  return c;
}

/** ClientExtendedInfo of each client of the page. */
const clientRecord = (ctx: RouteContext) => (c: number) => ctx.project.clientRecord(c, ctx.now);

export function clientRoutes(): Route[] {
  return [
    pagedFilterRoute({
      path: 'clients/filter',
      op: 'getClientDataByFilter',
      key: 'clients',
      select: (ctx, filters) => selectClients(ctx.project, filters, ctx.now),
      record: clientRecord,
    }),
    pagedFilterRoute({
      path: 'clients/all-for-bot',
      op: 'getAllClientDataForBot',
      needsProject: true,
      key: 'clients',
      // the selection of clients/filter with a join-time bound and the bot of the first session
      filters(ctx) {
        const botId = requireBot(ctx);
        const dateTo = queryDateTime(ctx.query, 'dateTo');
        if (dateTo === undefined)
          throw badParameter(
            'dateTo',
            'required parameter is missing (a date-time like 2024-05-01T00:00:00.000Z)',
          );
        return {
          clientJoin: [Number.NEGATIVE_INFINITY, dateTo],
          session: [(p, i) => p.botIdOf(i) === botId],
          message: [],
          key: `all-for-bot|${botId}|${dateTo}`,
        };
      },
      select: (ctx, filters) => selectClients(ctx.project, filters, ctx.now),
      record: clientRecord,
    }),
    writeRoute('PUT', 'clients/block', 'blockClient', (ctx) => {
      const c = clientOfBot(ctx);
      const body = requireObject(ctx.body);
      const blockedBy = requireInt(body['blockedBy'], 'blockedBy');
      const blockReason = optionalString(body['blockReason'], 'blockReason');
      // blocking again replaces the reason, the author and the date
      ctx.project.state.blocks.set(c, {
        blockedBy,
        blockDate: ctx.now,
        ...(blockReason === undefined ? {} : { blockReason }),
      });
    }),
    writeRoute('PUT', 'clients/unblock', 'unblockClient', (ctx) => {
      ctx.project.state.blocks.delete(clientOfBot(ctx));
    }),
  ];
}

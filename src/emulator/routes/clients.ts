// Client operations: clients/filter (paged ClientExtendedInfo by filters), clients/all-for-bot (the bot's
// clients who joined at or before dateTo), block and unblock. A client belongs to the bot of its first
// session; block state lives in ProjectState.blocks and shows in every later client record.
import { badParameter } from '../api-error.js';
import { type CompiledFilters, compileFilters } from '../filters.js';
import { queryDateTime, requiredString, requireInt, requireObject } from '../params.js';
import type { ProjectData } from '../project-data.js';
import { selectClients } from '../query.js';
import { pageOf, type Route, type RouteContext } from '../route.js';
import { findClient, missing, optionalString } from './labels-lookup.js';

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

export function clientRoutes(): Route[] {
  return [
    {
      method: 'POST',
      path: 'clients/filter',
      op: 'getClientDataByFilter',
      handler(ctx) {
        const filters = compileFilters(ctx.body);
        const { paging, items } = pageOf(ctx, selectClients(ctx.project, filters, ctx.now));
        return { body: { paging, clients: items.map((c) => ctx.project.clientRecord(c, ctx.now)) } };
      },
    },
    {
      method: 'POST',
      path: 'clients/all-for-bot',
      op: 'getAllClientDataForBot',
      needsProject: true,
      handler(ctx) {
        const botId = requireBot(ctx);
        const dateTo = queryDateTime(ctx.query, 'dateTo');
        if (dateTo === undefined)
          throw badParameter(
            'dateTo',
            'required parameter is missing (a date-time like 2024-05-01T00:00:00.000Z)',
          );
        // the selection of clients/filter with a join-time bound and the bot of the first session
        const filters: CompiledFilters = {
          clientJoin: [Number.NEGATIVE_INFINITY, dateTo],
          session: [(p, i) => p.botIdOf(i) === botId],
          message: [],
          key: `all-for-bot|${botId}|${dateTo}`,
        };
        const { paging, items } = pageOf(ctx, selectClients(ctx.project, filters, ctx.now));
        return { body: { paging, clients: items.map((c) => ctx.project.clientRecord(c, ctx.now)) } };
      },
    },
    {
      method: 'PUT',
      path: 'clients/block',
      op: 'blockClient',
      write: true,
      handler(ctx) {
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
        ctx.project.state.touch();
        return {};
      },
    },
    {
      method: 'PUT',
      path: 'clients/unblock',
      op: 'unblockClient',
      write: true,
      handler(ctx) {
        const c = clientOfBot(ctx);
        ctx.project.state.blocks.delete(c);
        ctx.project.state.touch();
        return {};
      },
    },
  ];
}

// Clients of the Reporter API: one page of clients/filter, finding one client by id,
// and blocking / unblocking a client of a bot (published for the legacy generation; v1 where served).
// Records are parsed with zod (ClientExtendedInfo); a malformed record fails the read, naming the field.
import { z } from 'zod';
import type { ReporterFilter } from './filters.js';
import { parseAnswer } from './parse-answer.js';
import type { ReporterHttp } from './reporter-http.js';
import { type ClientExtendedInfo, clientExtendedInfo, paging } from './schemas.js';

export type { ClientExtendedInfo };

const clientsData = z.object({
  paging,
  clients: z.array(clientExtendedInfo),
  filterSetId: z.string().nullish(),
});
export type ClientsPage = z.infer<typeof clientsData>;

export interface PageRequest {
  page?: number;
  size?: number;
}

/** One page of clients matching `filters` (CLIENT_ID_OR_NAME, CLIENT_JOIN_TIME, BOT_ID, ...). */
export async function filterClients(
  http: ReporterHttp,
  filters: ReporterFilter[],
  request: PageRequest = {},
): Promise<ClientsPage> {
  const op = 'clients/filter';
  const answer = await http.json({
    method: 'POST',
    read: true,
    op,
    query: { page: request.page ?? 0, size: request.size ?? 20 },
    body: { filters },
  });
  return parseAnswer(op, clientsData, answer);
}

/**
 * The client with exactly this id (of this bot, when given), or undefined. CLIENT_ID_OR_NAME also matches
 * names, so the answer is narrowed to the exact id.
 */
export async function findClient(
  http: ReporterHttp,
  clientId: string,
  botId?: string,
): Promise<ClientExtendedInfo | undefined> {
  const filters: ReporterFilter[] = [
    {
      key: 'CLIENT_ID_OR_NAME',
      type: 'TEXT',
      comparisonType: 'EQUALS',
      values: [clientId],
      isCaseSensitive: true,
    },
  ];
  if (botId !== undefined)
    filters.push({ key: 'BOT_ID', type: 'CHECKBOX', comparisonType: 'CONTAINS', options: [botId] });
  const page = await filterClients(http, filters, { size: 100 });
  return page.clients.find((c) => c.id === clientId);
}

/** `BlockClientDto {blockedBy, blockReason?}`: blocking again replaces the reason, the author and the date. */
export async function blockClient(
  http: ReporterHttp,
  request: { clientId: string; botId: string; blockedBy: number; blockReason?: string | undefined },
): Promise<void> {
  await http.json({
    method: 'PUT',
    op: 'clients/block',
    query: { botId: request.botId, clientId: request.clientId },
    body: {
      blockedBy: request.blockedBy,
      ...(request.blockReason === undefined ? {} : { blockReason: request.blockReason }),
    },
  });
}

export async function unblockClient(
  http: ReporterHttp,
  request: { clientId: string; botId: string },
): Promise<void> {
  await http.json({
    method: 'PUT',
    op: 'clients/unblock',
    query: { botId: request.botId, clientId: request.clientId },
  });
}

// The rows of clients and client-list reports, from the same ClientExtendedInfo that clients/filter
// answers. Invariant: column 1 is the client id, in selection order (newest client first).
import type { ProjectData } from '../project-data.js';
import {
  booleanColumn,
  dateTimeColumn,
  lazyTable,
  type ReportTable,
  rowOf,
  textColumn,
} from './report-table.js';

const CLIENT_COLUMNS = [
  textColumn('clientId'),
  textColumn('firstName'),
  textColumn('lastName'),
  textColumn('username'),
  textColumn('channelType'),
  textColumn('botId'),
  dateTimeColumn('joinDate'),
  dateTimeColumn('lastVisitDate'),
  textColumn('lastSessionId'),
  booleanColumn('isBlocked'),
  textColumn('blockReason'),
  textColumn('blockedBy'),
  dateTimeColumn('blockDate'),
];

const LIST_COLUMNS = [
  textColumn('clientId'),
  textColumn('channelType'),
  textColumn('botId'),
  textColumn('firstName'),
  textColumn('lastName'),
  textColumn('username'),
  booleanColumn('isBlocked'),
];

function table(
  p: ProjectData,
  clients: readonly number[],
  now: number,
  sheet: string,
  columns: typeof CLIENT_COLUMNS,
): ReportTable {
  return lazyTable(sheet, columns, clients, (c) => {
    const record = p.clientRecord(c, now);
    return rowOf(columns, (name) => (name === 'clientId' ? record['id'] : record[name]));
  });
}

export function clientsTable(p: ProjectData, clients: readonly number[], now: number): ReportTable {
  return table(p, clients, now, 'Clients', CLIENT_COLUMNS);
}

export function clientListTable(p: ProjectData, clients: readonly number[], now: number): ReportTable {
  return table(p, clients, now, 'Client list', LIST_COLUMNS);
}

// The rows of sessions reports: one row per session selected at creation, rendered as of the creation clock
// from the same SessionInfo sessions/filter answers (duration in the server's unit). Invariant: column 1 is
// sessionId, in selection order (newest first).
import type { ProjectData } from '../project-data.js';
import {
  booleanColumn,
  clientName,
  dateTimeColumn,
  labelNames,
  lazyTable,
  numberColumn,
  type ReportTable,
  rowOf,
  textColumn,
} from './report-table.js';

const COLUMNS = [
  textColumn('sessionId'),
  dateTimeColumn('startTime'),
  textColumn('channelType'),
  textColumn('botId'),
  textColumn('clientId'),
  textColumn('clientName'),
  numberColumn('questionCount'),
  numberColumn('duration'),
  textColumn('firstQuestion'),
  textColumn('lastQuestion'),
  booleanColumn('isLivechat'),
  textColumn('sessionResult'),
  textColumn('labels'),
];

export function sessionsTable(
  p: ProjectData,
  sessions: ArrayLike<number>,
  now: number,
  durationUnit: 'ms' | 's',
): ReportTable {
  return lazyTable('Sessions', COLUMNS, sessions, (i) => {
    const record = p.sessionRecord(i, now, { labels: true });
    const duration = record['duration'] as number;
    const derived: Record<string, unknown> = {
      clientId: (record['client'] as { id?: string }).id,
      clientName: clientName(record['client']),
      duration: durationUnit === 's' ? Math.round(duration / 1000) : duration,
      labels: labelNames(record['labels']),
    };
    return rowOf(COLUMNS, (name) => (name in derived ? derived[name] : record[name]));
  });
}

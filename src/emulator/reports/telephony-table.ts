// The rows of telephony reports: one row per call (a session of the telephony channel `resterisk`) that
// started in [startTime, endTime] (inclusive), optionally of some bots. Invariant: newest call first.
import type { ProjectData } from '../project-data.js';
import {
  dateTimeColumn,
  lazyTable,
  numberColumn,
  type ReportTable,
  rowOf,
  textColumn,
} from './report-table.js';

export interface CallQuery {
  from?: number;
  to?: number;
  botIds: string[];
}

const COLUMNS = [
  textColumn('sessionId'),
  dateTimeColumn('startTime'),
  textColumn('botId'),
  textColumn('phoneNumber'),
  textColumn('direction'),
  numberColumn('callTaskId'),
  numberColumn('duration'),
  numberColumn('questionCount'),
  textColumn('sessionResult'),
  textColumn('audioFileUrl'),
];

/** Session indexes of the calls, newest first. */
export function selectCalls(p: ProjectData, query: CallQuery, now: number): number[] {
  const [lo, hi] = p.skeleton.sessionsStartingIn(
    query.from ?? Number.NEGATIVE_INFINITY,
    Math.min(query.to ?? now, now),
  );
  const out: number[] = [];
  for (let i = hi - 1; i >= lo; i--) {
    if (p.withheld.has(i) || p.channelOf(i) !== 'resterisk') continue;
    if (query.botIds.length > 0 && !query.botIds.includes(p.botIdOf(i))) continue;
    out.push(i);
  }
  return out;
}

export function telephonyTable(
  p: ProjectData,
  calls: readonly number[],
  now: number,
  durationUnit: 'ms' | 's',
): ReportTable {
  return lazyTable('Calls', COLUMNS, calls, (i) => {
    const record = p.sessionRecord(i, now);
    const duration = record['duration'] as number;
    const derived: Record<string, unknown> = {
      phoneNumber: (record['client'] as { id?: string }).id,
      direction: record['isCallIncoming'] === true ? 'INCOMING' : 'OUTGOING',
      duration: durationUnit === 's' ? Math.round(duration / 1000) : duration,
    };
    return rowOf(COLUMNS, (name) => (name in derived ? derived[name] : record[name]));
  });
}

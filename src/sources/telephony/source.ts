// The telephony source: the platform's call statistics (stats/telephony) per UTC day into table
// telephony_daily (migration 018, docs/telephony.md): incoming, outgoing and billed calls, the average
// duration. A daily source: each run reads the days that may still change, one request per day.
import { defineStagedTable } from '../../warehouse/stage-rows.js';
import type { TableSpec } from '../../warehouse/table-spec.js';
import { defineDailySource } from '../daily-source.js';
import type { DayCalls } from './read-day-calls.js';

export const TELEPHONY_DAILY_TABLE: TableSpec = {
  name: 'telephony_daily',
  key: ['project', 'day'],
  write: 'replace-by-key',
  time: 'day',
  exported: true,
};

export const telephonySource = defineDailySource<DayCalls>({
  id: 'telephony',
  describe: 'the platform call statistics per day (stats/telephony) into telephony_daily',
  table: TELEPHONY_DAILY_TABLE,
  stage: defineStagedTable<DayCalls>('stage_telephony_daily', [
    ['project', 'varchar'],
    ['day', 'date'],
    ['incoming_calls', 'bigint'],
    ['outgoing_calls', 'bigint'],
    ['billed_calls', 'bigint'],
    ['average_call_seconds', 'double'],
  ]),
  defaultSchedule: '25 * * * *',
  // the reader (the Reporter's client, zod) is loaded when a day is read, not when the unit is listed
  readDay: async (http, project, day) =>
    (await import('./read-day-calls.js')).readDayCalls(http, project, day),
});

// The state-routes source: the routes sessions take through the bot's states (state-routes/filter), per UTC
// day of their start and per channel, into table state_routes (migration 017, docs/state-routes.md), for
// path and drop-off analysis. A daily source: each run reads the days that may still change, a day whole.
import { defineStagedTable } from '../../warehouse/stage-rows.js';
import type { TableSpec } from '../../warehouse/table-spec.js';
import { defineDailySource } from '../daily-source.js';
import type { DayRoute } from './read-day-routes.js';

export const STATE_ROUTES_TABLE: TableSpec = {
  name: 'state_routes',
  key: ['project', 'day', 'channel_type', 'route', 'result'],
  write: 'replace-by-key',
  time: 'day',
  exported: true,
};

export const stateRoutesSource = defineDailySource<DayRoute>({
  id: 'state-routes',
  describe: "routes through the bot's states per day and channel (state-routes/filter) into state_routes",
  table: STATE_ROUTES_TABLE,
  stage: defineStagedTable<DayRoute>('stage_state_routes', [
    ['project', 'varchar'],
    ['day', 'date'],
    ['channel_type', 'varchar'],
    ['states', 'varchar[]'],
    ['route', 'varchar'],
    ['result', 'varchar'],
    ['sessions', 'bigint'],
  ]),
  defaultSchedule: '20 * * * *',
  // the reader (the Reporter's client, zod) is loaded when a day is read, not when the unit is listed
  readDay: async (http, project, day) =>
    (await import('./read-day-routes.js')).readDayRoutes(http, project, day),
});

// The statements that store a page of Chat API events: the events (one row per event_key, rows already
// stored skipped), the page's rejects, and the channel's cursor, run together in one transaction
// (Warehouse.execute): a crash keeps the page and its cursor, or neither.
import type { SqlStatement } from '../../warehouse/warehouse.js';

/** One event as the statement takes it (JSON-encoded in one parameter; DuckDB's from_json unpacks it). */
export interface ChatApiEventRow {
  event_key: string;
  type: string;
  client_id: string | null;
  cid: string | null;
  question_id: string | null;
  event_time_ms: number;
  event: unknown;
}

export interface ChatApiRejectRow {
  record_id: string | null;
  raw_json: string;
  error: string;
}

const EVENT_ROW_TYPE = JSON.stringify([
  {
    event_key: 'VARCHAR',
    type: 'VARCHAR',
    client_id: 'VARCHAR',
    cid: 'VARCHAR',
    question_id: 'VARCHAR',
    event_time_ms: 'BIGINT',
    event: 'JSON',
  },
]);

const INSERT_EVENTS = `
INSERT INTO chatapi_events
SELECT DISTINCT ON (t.x.event_key) $channel, t.x.event_key, t.x.type, t.x.client_id, t.x.cid, t.x.question_id,
       make_timestamptz(t.x.event_time_ms * 1000), t.x.event, $received_at
FROM (SELECT unnest(from_json($rows, '${EVENT_ROW_TYPE}')) AS x) t
WHERE NOT EXISTS (SELECT 1 FROM chatapi_events e WHERE e.channel = $channel AND e.event_key = t.x.event_key)`;

const REJECT_ROW_TYPE = JSON.stringify([{ record_id: 'VARCHAR', raw_json: 'VARCHAR', error: 'VARCHAR' }]);

const INSERT_REJECTS = `
INSERT INTO etl_rejects (run_id, project, endpoint, record_id, raw_json, error, rejected_at)
SELECT $run_id, $project, $endpoint, t.x.record_id, t.x.raw_json, t.x.error, $rejected_at
FROM (SELECT unnest(from_json($rows, '${REJECT_ROW_TYPE}')) AS x) t`;

/** The etl_state project of a channel: `chatapi:<name>`. */
export function stateProjectOf(channel: string): string {
  return `chatapi:${channel}`;
}

export const EVENTS_CURSOR_KEY = 'events_ts';

export function storeEventsPage(page: {
  channel: string;
  runId: string;
  events: readonly ChatApiEventRow[];
  rejects: readonly ChatApiRejectRow[];
  cursor: number;
  now: number;
}): SqlStatement[] {
  const project = stateProjectOf(page.channel);
  const at = new Date(page.now);
  return [
    {
      sql: INSERT_EVENTS,
      params: { channel: page.channel, rows: JSON.stringify(page.events), received_at: at },
    },
    ...(page.rejects.length === 0
      ? []
      : [
          {
            sql: INSERT_REJECTS,
            params: {
              run_id: page.runId,
              project,
              endpoint: 'chatapi/events',
              rows: JSON.stringify(page.rejects),
              rejected_at: at,
            },
          },
        ]),
    {
      sql: 'DELETE FROM etl_state WHERE project = $project AND key = $key',
      params: { project, key: EVENTS_CURSOR_KEY },
    },
    {
      sql: 'INSERT INTO etl_state (project, key, value, updated_at) VALUES ($project, $key, $value, $updated_at)',
      params: { project, key: EVENTS_CURSOR_KEY, value: String(page.cursor), updated_at: at },
    },
  ];
}

export const SELECT_EVENTS_CURSOR = 'SELECT value FROM etl_state WHERE project = $project AND key = $key';

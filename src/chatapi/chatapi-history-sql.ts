// The statements of the Chat API history source: which clients to read (those whose `chatapi` messages the
// Reporter sync stored in the range), and storing a batch of clients' messages and unread counts with the
// channel's watermark in one transaction (Warehouse.execute). Rows of a re-read replace the stored ones by
// key (channel, question_id, type), so a rerun after a crash doubles nothing and a status moves on.
import type { SqlStatement } from '../warehouse/warehouse.js';
import { stateProjectOf } from './chatapi-events-sql.js';

export const HISTORY_WATERMARK_KEY = 'history_watermark';

/** Clients (with their project) of the range's `chatapi` messages in the warehouse. */
export const SELECT_CHATAPI_CLIENTS = `
SELECT DISTINCT s.project, s.client_id
FROM messages AS m
JOIN sessions AS s ON s.project = m.project AND s.session_id = m.session_id
WHERE m.channel_type = 'chatapi' AND m."timestamp" >= $from AND m."timestamp" < $to
  AND list_contains($projects, m.project) AND s.client_id IS NOT NULL
ORDER BY s.project, s.client_id`;

/** The Reporter projects synced into the warehouse (a watermark of their own; not the Chat API's states). */
export const SELECT_SYNCED_PROJECTS = `
SELECT project FROM etl_state WHERE key = 'watermark' AND NOT starts_with(project, 'chatapi:') ORDER BY project`;

export const SELECT_HISTORY_WATERMARK = 'SELECT value FROM etl_state WHERE project = $project AND key = $key';

export interface ChatApiMessageRow {
  project: string;
  client_id: string;
  question_id: string;
  type: string;
  message_time_ms: number;
  query: string | null;
  event: string | null;
  replies: unknown;
  status: string | null;
}

export interface ChatApiUnreadRow {
  project: string;
  client_id: string;
  unread: number;
}

export interface ChatApiHistoryRejectRow {
  record_id: string | null;
  raw_json: string;
  error: string;
}

const MESSAGE_ROW_TYPE = JSON.stringify([
  {
    project: 'VARCHAR',
    client_id: 'VARCHAR',
    question_id: 'VARCHAR',
    type: 'VARCHAR',
    message_time_ms: 'BIGINT',
    query: 'VARCHAR',
    event: 'VARCHAR',
    replies: 'JSON',
    status: 'VARCHAR',
  },
]);

/** The batch's rows as a relation, one per key (the last one read wins). */
const BATCH = `SELECT unnest(from_json($rows, '${MESSAGE_ROW_TYPE}'), recursive := true)`;

const DELETE_REPLACED = `
DELETE FROM chatapi_messages AS c
WHERE c.channel = $channel
  AND (c.question_id, c.type) IN (SELECT (b.question_id, b.type) FROM (${BATCH}) b)`;

const INSERT_MESSAGES = `
INSERT INTO chatapi_messages
SELECT DISTINCT ON (b.question_id, b.type) $channel, b.project, b.client_id, b.question_id, b.type,
       make_timestamptz(b.message_time_ms * 1000), b.query, b.event, b.replies, b.status, $synced_at
FROM (${BATCH}) b`;

const INSERT_UNREAD = `
INSERT INTO chatapi_unread_counts
SELECT $channel, t.x.project, t.x.client_id, t.x.unread, $taken_at
FROM (SELECT unnest(from_json($rows, '[{"project":"VARCHAR","client_id":"VARCHAR","unread":"INTEGER"}]')) AS x) t`;

const INSERT_REJECTS = `
INSERT INTO etl_rejects (run_id, project, endpoint, record_id, raw_json, error, rejected_at)
SELECT $run_id, $project, 'chatapi/history', t.x.record_id, t.x.raw_json, t.x.error, $rejected_at
FROM (SELECT unnest(from_json($rows, '[{"record_id":"VARCHAR","raw_json":"VARCHAR","error":"VARCHAR"}]')) AS x) t`;

/** Stores a batch of clients; with `watermark`, the channel's range is done up to it. */
export function storeHistoryBatch(batch: {
  channel: string;
  runId: string;
  messages: readonly ChatApiMessageRow[];
  unread: readonly ChatApiUnreadRow[];
  rejects: readonly ChatApiHistoryRejectRow[];
  now: number;
  watermark?: number;
}): SqlStatement[] {
  const at = new Date(batch.now);
  const state = stateProjectOf(batch.channel);
  const rows = JSON.stringify(batch.messages);
  const statements: SqlStatement[] = [
    { sql: DELETE_REPLACED, params: { channel: batch.channel, rows } },
    { sql: INSERT_MESSAGES, params: { channel: batch.channel, rows, synced_at: at } },
  ];
  if (batch.unread.length > 0)
    statements.push({
      sql: INSERT_UNREAD,
      params: { channel: batch.channel, rows: JSON.stringify(batch.unread), taken_at: at },
    });
  if (batch.rejects.length > 0)
    statements.push({
      sql: INSERT_REJECTS,
      params: { run_id: batch.runId, project: state, rows: JSON.stringify(batch.rejects), rejected_at: at },
    });
  if (batch.watermark !== undefined)
    statements.push(
      {
        sql: 'DELETE FROM etl_state WHERE project = $project AND key = $key',
        params: { project: state, key: HISTORY_WATERMARK_KEY },
      },
      {
        sql: 'INSERT INTO etl_state (project, key, value, updated_at) VALUES ($project, $key, $value, $updated_at)',
        params: {
          project: state,
          key: HISTORY_WATERMARK_KEY,
          value: new Date(batch.watermark).toISOString(),
          updated_at: at,
        },
      },
    );
  return statements;
}

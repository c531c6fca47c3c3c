// The statements of the Chat API history source: which clients to read (those whose `chatapi` messages the
// Reporter sync stored in the range), and a batch of clients' messages and unread counts with the channel's
// watermark as one commit (commitBatch, one transaction). Rows of a re-read replace the stored ones by
// key (channel, question_id, type), so a rerun after a crash doubles nothing and a status moves on.
import { type Batch, defineBatchTable } from '../../warehouse/commit-batch.js';
import type { RejectRow } from '../../warehouse/rows.js';
import type { StagedTable } from '../../warehouse/stage-rows.js';
import { STAGING_TABLES } from '../../warehouse/staging-tables.js';
import { ETL_REJECTS_TABLE } from '../../warehouse/tables.js';
import { stateProjectOf } from './chatapi-events-sql.js';
import { CHATAPI_MESSAGES_TABLE, CHATAPI_UNREAD_COUNTS_TABLE } from './tables.js';

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

/** The batch's messages staged for chatapi_messages: the channel is the batch's, the replies their JSON text. */
function defineMessagesStage(channel: string): StagedTable<ChatApiMessageRow> {
  return {
    name: 'stage_chatapi_messages',
    columns: [
      { name: 'channel', type: 'varchar', value: () => channel },
      { name: 'project', type: 'varchar', value: (r) => r.project },
      { name: 'client_id', type: 'varchar', value: (r) => r.client_id },
      { name: 'question_id', type: 'varchar', value: (r) => r.question_id },
      { name: 'type', type: 'varchar', value: (r) => r.type },
      { name: 'message_time', type: 'timestamptz', value: (r) => r.message_time_ms },
      { name: 'query', type: 'varchar', value: (r) => r.query },
      { name: 'event', type: 'varchar', value: (r) => r.event },
      {
        name: 'replies',
        type: 'varchar',
        value: (r) => (r.replies === null || r.replies === undefined ? null : JSON.stringify(r.replies)),
      },
      { name: 'status', type: 'varchar', value: (r) => r.status },
    ],
  };
}

function defineUnreadStage(channel: string): StagedTable<ChatApiUnreadRow> {
  return {
    name: 'stage_chatapi_unread_counts',
    columns: [
      { name: 'channel', type: 'varchar', value: () => channel },
      { name: 'project', type: 'varchar', value: (r) => r.project },
      { name: 'client_id', type: 'varchar', value: (r) => r.client_id },
      { name: 'unread', type: 'integer', value: (r) => r.unread },
    ],
  };
}

/**
 * A batch of clients as one commit (commitBatch): their messages replace the stored ones of the channel by
 * (question_id, type), their unread counts and rejects are appended; with `watermark`, the channel's range is
 * done up to it.
 */
export function describeHistoryBatch(batch: {
  channel: string;
  runId: string;
  messages: readonly ChatApiMessageRow[];
  unread: readonly ChatApiUnreadRow[];
  rejects: readonly ChatApiHistoryRejectRow[];
  now: number;
  watermark?: number;
}): Batch {
  const at = new Date(batch.now);
  const state = stateProjectOf(batch.channel);
  const rejects: RejectRow[] = batch.rejects.map((r) => ({
    run_id: batch.runId,
    project: state,
    endpoint: 'chatapi/history',
    record_id: r.record_id,
    raw_json: r.raw_json,
    error: r.error,
  }));
  return {
    tables: [
      defineBatchTable({
        spec: CHATAPI_MESSAGES_TABLE,
        stage: defineMessagesStage(batch.channel),
        rows: batch.messages,
        constants: { synced_at: at },
        replaceKey: ['channel', 'question_id', 'type'],
      }),
      defineBatchTable({
        spec: CHATAPI_UNREAD_COUNTS_TABLE,
        stage: defineUnreadStage(batch.channel),
        rows: batch.unread,
        constants: { taken_at: at },
      }),
      defineBatchTable({
        spec: ETL_REJECTS_TABLE,
        stage: STAGING_TABLES.rejects,
        rows: rejects,
        constants: { rejected_at: at },
      }),
    ],
    state:
      batch.watermark === undefined
        ? []
        : [{ project: state, key: HISTORY_WATERMARK_KEY, value: new Date(batch.watermark).toISOString() }],
    at,
  };
}

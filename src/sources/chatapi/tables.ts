// The Chat API's warehouse tables (migration 009). The history and the unread counts carry the Reporter
// project and are exported (the history writes them through commitBatch); the events are keyed by channel only
// (no project column) and stay local. A channel's token is stored nowhere.
import type { TableSpec } from '../../warehouse/table-spec.js';

export const CHATAPI_MESSAGES_TABLE: TableSpec = {
  name: 'chatapi_messages',
  key: ['project', 'channel', 'question_id', 'type'],
  write: 'replace-by-key',
  time: 'message_time',
  exported: true,
};

export const CHATAPI_UNREAD_COUNTS_TABLE: TableSpec = {
  name: 'chatapi_unread_counts',
  key: ['project', 'channel', 'client_id', 'taken_at'],
  write: 'append',
  time: 'taken_at',
  exported: true,
};

export const CHATAPI_TABLES: readonly TableSpec[] = [
  { name: 'chatapi_events', key: ['channel', 'event_key'], write: 'append', exported: false },
  CHATAPI_MESSAGES_TABLE,
  CHATAPI_UNREAD_COUNTS_TABLE,
];

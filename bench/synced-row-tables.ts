// The row tables a sync of the Reporter fills (a window's tables and the statuses' history, no catalogue), in
// the order the bench's children read and print them: the load floor appends them (children/append-rows.ts),
// the native floor counts its rows in them (children/native-ingest.ts). Named by their specs
// (src/warehouse/tables.ts), so that a table renamed there is renamed here.
import {
  CLIENTS_TABLE,
  MESSAGE_LABELS_TABLE,
  MESSAGE_STATUS_HISTORY_TABLE,
  MESSAGES_TABLE,
  SESSION_DATA_TABLE,
  SESSION_LABELS_TABLE,
  SESSIONS_TABLE,
} from '../src/warehouse/tables.js';

export const SYNCED_ROW_TABLES: readonly string[] = [
  SESSIONS_TABLE,
  MESSAGES_TABLE,
  SESSION_LABELS_TABLE,
  MESSAGE_LABELS_TABLE,
  SESSION_DATA_TABLE,
  CLIENTS_TABLE,
  MESSAGE_STATUS_HISTORY_TABLE,
].map((spec) => spec.name);

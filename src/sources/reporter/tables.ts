// The Reporter's warehouse tables (migrations 001, 004, 005): sessions, messages and what hangs off them, and
// the per-project catalogues, in the order the lake lists them. Their specs live beside the window commit
// that writes them (src/warehouse/tables.ts); this is the Reporter unit's list of them.

import type { TableSpec } from '../../warehouse/table-spec.js';
import {
  CLIENTS_TABLE,
  EXPERIMENTS_TABLE,
  MESSAGE_LABEL_CATALOGUE_TABLE,
  MESSAGE_LABELS_TABLE,
  MESSAGE_STATUS_HISTORY_TABLE,
  MESSAGES_TABLE,
  SESSION_DATA_TABLE,
  SESSION_LABEL_CATALOGUE_TABLE,
  SESSION_LABELS_TABLE,
  SESSIONS_TABLE,
} from '../../warehouse/tables.js';

export const REPORTER_TABLES: readonly TableSpec[] = [
  SESSIONS_TABLE,
  MESSAGES_TABLE,
  MESSAGE_LABELS_TABLE,
  MESSAGE_STATUS_HISTORY_TABLE,
  SESSION_LABELS_TABLE,
  SESSION_DATA_TABLE,
  CLIENTS_TABLE,
  EXPERIMENTS_TABLE,
  SESSION_LABEL_CATALOGUE_TABLE,
  MESSAGE_LABEL_CATALOGUE_TABLE,
];

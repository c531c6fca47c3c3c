// The TableSpecs of the tables the warehouse's own commits write: the Reporter's window and catalogues
// (commit-window.ts, commit-catalogues.ts) and the rejects every source keeps. Keys as in 001_init.sql and
// the Reporter's unit lists them (src/sources/reporter/tables.ts); they move to the Reporter source with its window commit.
import type { TableSpec } from './table-spec.js';

export const SESSIONS_TABLE: TableSpec = {
  name: 'sessions',
  key: ['project', 'session_id'],
  write: 'replace-by-key',
  time: 'start_time',
  exported: true,
};

export const MESSAGES_TABLE: TableSpec = {
  name: 'messages',
  key: ['project', 'question_id'],
  write: 'replace-by-key',
  time: '"timestamp"',
  exported: true,
};

export const SESSION_LABELS_TABLE: TableSpec = {
  name: 'session_labels',
  key: ['project', 'session_id', 'label_id'],
  write: 'replace-by-key',
  exported: true,
};

export const MESSAGE_LABELS_TABLE: TableSpec = {
  name: 'message_labels',
  key: ['project', 'question_id', 'label_id'],
  write: 'replace-by-key',
  time: '"timestamp"',
  exported: true,
};

export const SESSION_DATA_TABLE: TableSpec = {
  name: 'session_data',
  key: ['project', 'session_id', 'key'],
  write: 'replace-by-key',
  exported: true,
};

export const CLIENTS_TABLE: TableSpec = {
  name: 'clients',
  key: ['project', 'client_id'],
  write: 'replace-by-key',
  exported: true,
};

export const EXPERIMENTS_TABLE: TableSpec = {
  name: 'experiments',
  key: ['project', 'experiment_key'],
  write: 'replace-by-key',
  exported: true,
};

export const SESSION_LABEL_CATALOGUE_TABLE: TableSpec = {
  name: 'session_label_catalogue',
  key: ['project', 'label_id'],
  write: 'replace-by-key',
  exported: true,
};

export const MESSAGE_LABEL_CATALOGUE_TABLE: TableSpec = {
  name: 'message_label_catalogue',
  key: ['project', 'label_id'],
  write: 'replace-by-key',
  exported: true,
};

/** Each (message, status) pair the first time a window saw it (inserted by the window's statuses step). */
export const MESSAGE_STATUS_HISTORY_TABLE: TableSpec = {
  name: 'message_status_history',
  key: ['project', 'question_id', 'status'],
  write: 'append',
  time: 'first_seen_at',
  exported: true,
};

/** Kept raw with their error, deleted by the retention job after REPORTER_RETENTION_DAYS. */
export const ETL_REJECTS_TABLE: TableSpec = {
  name: 'etl_rejects',
  key: [],
  write: 'append',
  exported: false,
  retainedBy: 'rejected_at',
};

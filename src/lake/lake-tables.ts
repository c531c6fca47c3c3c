// The warehouse tables the Parquet lake holds, and how each is partitioned: by project, and for the tables
// of events in time also by the UTC date of that time (a session's start, a message's time), so an
// incremental export rewrites the days that changed. Operational tables (runs, state, rejects, write-backs,
// platform report tasks) stay in the warehouse: they describe one machine's work, not the data.
export interface LakeTable {
  table: string;
  /** The column whose UTC date partitions the table; none: one partition per project. */
  time?: string;
}

export const LAKE_TABLES: readonly LakeTable[] = [
  { table: 'sessions', time: 'start_time' },
  { table: 'messages', time: '"timestamp"' },
  { table: 'message_labels', time: '"timestamp"' },
  { table: 'message_status_history', time: 'first_seen_at' },
  { table: 'session_labels' },
  { table: 'session_data' },
  { table: 'clients' },
  { table: 'experiments' },
  { table: 'session_label_catalogue' },
  { table: 'message_label_catalogue' },
  { table: 'chatapi_messages', time: 'message_time' },
  { table: 'chatapi_unread_counts', time: 'taken_at' },
];

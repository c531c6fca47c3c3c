// The Reporter's warehouse tables (migrations 001, 004, 005): sessions, messages and what hangs off them, and
// the per-project catalogues. All exported; the tables of events in time are partitioned by the UTC date of
// that time. Keys as 001_init.sql states them (unique by the load code: delete by key, then insert).
import type { TableSpec } from '../warehouse/table-spec.js';

export const REPORTER_TABLES: readonly TableSpec[] = [
  {
    name: 'sessions',
    key: ['project', 'session_id'],
    write: 'replace-by-key',
    time: 'start_time',
    exported: true,
  },
  {
    name: 'messages',
    key: ['project', 'question_id'],
    write: 'replace-by-key',
    time: '"timestamp"',
    exported: true,
  },
  {
    name: 'message_labels',
    key: ['project', 'question_id', 'label_id'],
    write: 'replace-by-key',
    time: '"timestamp"',
    exported: true,
  },
  {
    name: 'message_status_history',
    key: ['project', 'question_id', 'status'],
    write: 'append',
    time: 'first_seen_at',
    exported: true,
  },
  {
    name: 'session_labels',
    key: ['project', 'session_id', 'label_id'],
    write: 'replace-by-key',
    exported: true,
  },
  { name: 'session_data', key: ['project', 'session_id', 'key'], write: 'replace-by-key', exported: true },
  { name: 'clients', key: ['project', 'client_id'], write: 'replace-by-key', exported: true },
  { name: 'experiments', key: ['project', 'experiment_key'], write: 'replace-by-key', exported: true },
  { name: 'session_label_catalogue', key: ['project', 'label_id'], write: 'replace-by-key', exported: true },
  { name: 'message_label_catalogue', key: ['project', 'label_id'], write: 'replace-by-key', exported: true },
];

// The statistics' rollup tables (migration 024) as table specs: derived from the raw rows by every window
// commit (commit-rollups-sql.ts) and by `reporter-etl rollups rebuild`, so operational like the runs: never
// exported (the lake and ClickHouse hold the raw rows they are computed from) and never retained on their own.
import { ROLLUP_TABLES } from './rebuild-rollups.js';
import type { TableSpec } from './table-spec.js';

/** Each rollup's key: the columns a row is one of (the dimensions of its grouping). */
const ROLLUP_KEYS: Record<(typeof ROLLUP_TABLES)[number], readonly string[]> = {
  stat_transfers: ['project', 'q', 'session_id'],
  stat_sessions: ['project', 'session_id'],
  stat_session_labels: ['project', 'session_id', 'label_id'],
  stat_session_data: ['project', 'session_id', 'key'],
  stat_session_quarters: ['project', 'q', 'channel_type', 'message_count', 'transferred'],
  stat_duration_quarters: ['project', 'q', 'channel_type', 'duration_minute'],
  stat_session_label_quarters: ['project', 'q', 'channel_type', 'label_id', 'label_name'],
  stat_session_data_quarters: ['project', 'q', 'channel_type', 'key', 'value', 'transferred'],
  stat_message_quarters: ['project', 'q', 'channel_type', 'status', 'nlp_class'],
  stat_label_quarters: ['project', 'q', 'channel_type', 'label_id', 'label_name', 'group_name'],
};

/** The rollups in the order the migration fills them. */
export const ROLLUP_TABLE_SPECS: readonly TableSpec[] = ROLLUP_TABLES.map((name) => ({
  name,
  key: ROLLUP_KEYS[name],
  write: 'replace-by-key',
  exported: false,
}));

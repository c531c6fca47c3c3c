// The stored delivery status of every message of some sessions: lets the sync skip re-reading the
// statuses of sessions whose messages are already final (the rule of what is final belongs to the sync).
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows } from './query-rows.js';
import { WAREHOUSE_SQL as SQL } from './warehouse-sql.js';

/**
 * question_id -> status (null where the channel has none) for the messages of the given sessions; with
 * `between`, only their messages of that time range (inclusive, epoch ms), which keeps the read small
 * on a large warehouse.
 */
export async function readLatestStatuses(
  connection: DuckDBConnection,
  project: string,
  sessionIds: readonly string[],
  between?: { from: number; to: number },
): Promise<Map<string, string | null>> {
  const statuses = new Map<string, string | null>();
  if (sessionIds.length === 0) return statuses;
  const rows = between
    ? await queryRows(connection, SQL.selectLatestStatusesBetween, {
        project,
        session_ids: sessionIds,
        from: new Date(between.from),
        to: new Date(between.to),
      })
    : await queryRows(connection, SQL.selectLatestStatuses, { project, session_ids: sessionIds });
  for (const row of rows) {
    const status = row['status'];
    statuses.set(String(row['question_id']), status === null || status === undefined ? null : String(status));
  }
  return statuses;
}

// What each lever on the status requests saved, for the full sync steps: from the synced warehouse, the
// requests the earlier designs would have made for the same messages, beside the sync's own count of
// messages/by-client and by-session requests and the requests of its statuses reports (a `messages` report
// task per window: create, async events or task polls, file, delete), read from the emulator's request log:
//   - per session: one messages/by-session read (pages of `pageSize`) per session with status-channel messages;
//   - per client and window: one messages/by-client read per client with such messages in each window;
//   - per client with look-ahead (what the sync does): counted, not derived.
import { DuckDBInstance } from '@duckdb/node-api';
import type { RecordedRequest } from '../../src/emulator/emulator.js';

export interface StatusRequestLevers {
  byClient: number;
  bySession: number;
  /** Requests of the statuses reports (POST reports/messages, async/events, reports/tasks, reports/files). */
  reports: number;
  /** Requests of every other operation (paged filters, catalogues...). */
  other: number;
  ifPerSession: number;
  ifPerClientPerWindow: number;
}

const STATUS_CHANNELS = "('telegram', 'viber', 'vk')";

export async function statusRequestLevers(
  warehousePath: string,
  log: readonly RecordedRequest[],
  o: { pageSize: number; windowHours: number },
): Promise<StatusRequestLevers> {
  const byClient = log.filter((r) => r.url.includes('/messages/by-client')).length;
  const bySession = log.filter((r) => r.url.includes('/messages/by-session')).length;
  const reports = log.filter((r) => r.url.includes('/reports/') || r.url.includes('/async/events')).length;
  const instance = await DuckDBInstance.create(warehousePath, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(`
      WITH status_messages AS (
        SELECT m.session_id, s.bot_id, s.client_id, m.timestamp
        FROM messages m JOIN sessions s USING (project, session_id)
        WHERE m.channel_type IN ${STATUS_CHANNELS}
      ),
      per_session AS (SELECT session_id, count(*) AS n FROM status_messages GROUP BY ALL)
      SELECT
        (SELECT sum(ceil(n / ${o.pageSize}))::BIGINT FROM per_session) AS if_per_session,
        (SELECT count(DISTINCT (bot_id, client_id, time_bucket(INTERVAL ${o.windowHours} HOUR, timestamp)))
           FROM status_messages) AS if_per_client_per_window`);
    const row = reader.getRowObjectsJS()[0] as Record<string, bigint | number | null>;
    return {
      byClient,
      bySession,
      reports,
      other: log.length - byClient - bySession - reports,
      ifPerSession: Number(row['if_per_session'] ?? 0),
      ifPerClientPerWindow: Number(row['if_per_client_per_window'] ?? 0),
    };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

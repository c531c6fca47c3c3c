// What the warehouse already holds of a look-back window [from, to): its counts (to check that nothing
// arrived late), the sessions that carry labels, the messages that carry labels or a comment, and the sessions
// with a message whose delivery status can still change. The look-back read (read-lookback-window.ts) asks
// the platform only about these and what is labelled or commented now.
import type { Warehouse } from '../warehouse/warehouse.js';
import type { UnsettledSession } from './read-client-messages.js';

export interface StoredWindow {
  sessions: number;
  messages: number;
  /** Sessions started in the window with at least one label. */
  labelledSessions: Set<string>;
  /** question_id -> session_id of the window's messages with a label or a comment. */
  annotatedMessages: Map<string, string>;
  /** Sessions with a message in the window on a status channel whose status is not final (or not known). */
  unsettledSessions: Map<string, UnsettledSession>;
}

// the final statuses of read-window.ts's isFinalStatus, in SQL
const UNSETTLED = `channel_type IN ('telegram', 'viber', 'vk')
  AND NOT (coalesce(status, '') IN ('READ', 'NOT_SENT', 'NOT_DELIVERED')
    OR (status = 'DELIVERED' AND channel_type = 'telegram'))`;

const IN_WINDOW = (column: string) => `${column} >= $from AND ${column} < $to`;

export async function readStoredWindow(
  warehouse: Warehouse,
  project: string,
  window: { from: number; to: number },
): Promise<StoredWindow> {
  const params = { project, from: new Date(window.from), to: new Date(window.to) };
  const [counts] = await warehouse.query(
    `SELECT
       (SELECT count(*) FROM sessions WHERE project = $project AND ${IN_WINDOW('start_time')}) AS sessions,
       (SELECT count(*) FROM messages WHERE project = $project AND ${IN_WINDOW('"timestamp"')}) AS messages`,
    params,
  );
  const labelled = await warehouse.query(
    `SELECT DISTINCT l.session_id FROM session_labels AS l
     JOIN sessions AS s ON s.project = l.project AND s.session_id = l.session_id
     WHERE s.project = $project AND ${IN_WINDOW('s.start_time')}`,
    params,
  );
  const annotated = await warehouse.query(
    `SELECT question_id, session_id FROM messages
     WHERE project = $project AND ${IN_WINDOW('"timestamp"')}
       AND (comment IS NOT NULL OR question_id IN (
         SELECT question_id FROM message_labels WHERE project = $project AND ${IN_WINDOW('"timestamp"')}))`,
    params,
  );
  const unsettled = await warehouse.query(
    `SELECT m.session_id, any_value(s.client_id) AS client_id, any_value(s.bot_id) AS bot_id,
            any_value(m.channel_type) AS channel_type, count(*) AS messages
     FROM messages AS m JOIN sessions AS s ON s.project = m.project AND s.session_id = m.session_id
     WHERE m.project = $project AND ${IN_WINDOW('m."timestamp"')}
       AND m.session_id IN (SELECT session_id FROM messages
         WHERE project = $project AND ${IN_WINDOW('"timestamp"')} AND ${UNSETTLED})
     GROUP BY m.session_id`,
    params,
  );
  return {
    sessions: Number(counts?.['sessions'] ?? 0),
    messages: Number(counts?.['messages'] ?? 0),
    labelledSessions: new Set(labelled.map((r) => String(r['session_id']))),
    annotatedMessages: new Map(annotated.map((r) => [String(r['question_id']), String(r['session_id'])])),
    unsettledSessions: new Map(
      unsettled.map((r) => [
        String(r['session_id']),
        {
          sessionId: String(r['session_id']),
          clientId: r['client_id'] === null ? null : String(r['client_id']),
          botId: r['bot_id'] === null ? null : String(r['bot_id']),
          channel: String(r['channel_type']),
          messages: Number(r['messages']),
        },
      ]),
    ),
  };
}

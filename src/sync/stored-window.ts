// What the warehouse already holds of a look-back window [from, to): its counts (to check that nothing
// arrived late), the sessions that carry labels, the messages that carry labels or a comment, and the sessions
// with a message whose delivery status can still change (and each of their messages' stored status, which the
// window's statuses report is checked against). The look-back read (read-lookback-window.ts) asks the platform
// only about these and what is labelled or commented now.
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
  /** question_id -> its session and stored status, of every message in the window of unsettledSessions. */
  unsettledMessages: Map<string, { sessionId: string; status: string | null }>;
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
    `SELECT m.question_id, m.session_id, m.status, m.channel_type, s.client_id, s.bot_id
     FROM messages AS m JOIN sessions AS s ON s.project = m.project AND s.session_id = m.session_id
     WHERE m.project = $project AND ${IN_WINDOW('m."timestamp"')}
       AND m.session_id IN (SELECT session_id FROM messages
         WHERE project = $project AND ${IN_WINDOW('"timestamp"')} AND ${UNSETTLED})`,
    params,
  );
  return {
    sessions: Number(counts?.['sessions'] ?? 0),
    messages: Number(counts?.['messages'] ?? 0),
    labelledSessions: new Set(labelled.map((r) => String(r['session_id']))),
    annotatedMessages: new Map(annotated.map((r) => [String(r['question_id']), String(r['session_id'])])),
    ...groupUnsettled(unsettled),
  };
}

/** The unsettled sessions (their client, bot, channel and message count) and their messages, from one row each. */
function groupUnsettled(
  rows: readonly Record<string, unknown>[],
): Pick<StoredWindow, 'unsettledSessions' | 'unsettledMessages'> {
  const unsettledSessions = new Map<string, UnsettledSession>();
  const unsettledMessages = new Map<string, { sessionId: string; status: string | null }>();
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  for (const r of rows) {
    const sessionId = String(r['session_id']);
    unsettledMessages.set(String(r['question_id']), { sessionId, status: text(r['status']) });
    const session = unsettledSessions.get(sessionId);
    if (session) session.messages++;
    else
      unsettledSessions.set(sessionId, {
        sessionId,
        clientId: text(r['client_id']),
        botId: text(r['bot_id']),
        channel: String(r['channel_type']),
        messages: 1,
      });
  }
  return { unsettledSessions, unsettledMessages };
}

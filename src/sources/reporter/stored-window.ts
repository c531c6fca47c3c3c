// What the warehouse already holds of a look-back window [from, to): its counts (to check that nothing
// arrived late), the sessions that carry labels, the messages that carry labels or a comment, and the sessions
// with a message whose delivery status can still change (and each of their messages' stored status, which the
// window's statuses report is checked against). The look-back read (read-lookback-window.ts) asks the platform
// only about these and what is labelled or commented now.
import type { PlainRow, Warehouse } from '../../warehouse/warehouse.js';
import { messageAnnotations, sessionAnnotations } from './annotation-signatures.js';
import type { UnsettledSession } from './read-client-messages.js';

export interface StoredWindow {
  sessions: number;
  messages: number;
  /** Sessions started in the window with at least one label. */
  labelledSessions: Set<string>;
  /** question_id -> session_id of the window's messages with a label or a comment. */
  annotatedMessages: Map<string, string>;
  /** Of the labelled sessions and annotated messages: their labels, comment and data (annotation-signatures.ts). */
  sessionSignatures: Map<string, { labels: string; withData: string }>;
  messageSignatures: Map<string, string>;
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
    `SELECT l.session_id, l.label_id, l.label_name FROM session_labels AS l
     JOIN sessions AS s ON s.project = l.project AND s.session_id = l.session_id
     WHERE s.project = $project AND ${IN_WINDOW('s.start_time')}`,
    params,
  );
  const labelledData = await warehouse.query(
    `SELECT d.session_id, d.key, d.value FROM session_data AS d
     JOIN sessions AS s ON s.project = d.project AND s.session_id = d.session_id
     WHERE s.project = $project AND ${IN_WINDOW('s.start_time')}
       AND d.session_id IN (SELECT session_id FROM session_labels WHERE project = $project)`,
    params,
  );
  const annotated = await warehouse.query(
    `SELECT question_id, session_id, comment FROM messages
     WHERE project = $project AND ${IN_WINDOW('"timestamp"')}
       AND (comment IS NOT NULL OR question_id IN (
         SELECT question_id FROM message_labels WHERE project = $project AND ${IN_WINDOW('"timestamp"')}))`,
    params,
  );
  const messageLabels = await warehouse.query(
    `SELECT question_id, label_id, label_name, group_name FROM message_labels
     WHERE project = $project AND ${IN_WINDOW('"timestamp"')}`,
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
    sessionSignatures: signSessions(labelled, labelledData),
    messageSignatures: signMessages(annotated, messageLabels),
    ...groupUnsettled(unsettled),
  };
}

const asLabel = (r: PlainRow) => ({
  label_id: r['label_id'],
  label_name: r['label_name'],
  group_name: r['group_name'],
});

/** The stored annotations of each labelled session: its labels alone, and its labels and data. */
function signSessions(
  labels: readonly PlainRow[],
  data: readonly PlainRow[],
): StoredWindow['sessionSignatures'] {
  const bySession = new Map<string, { labels: PlainRow[]; data: PlainRow[] }>();
  const entry = (id: unknown) => {
    const key = String(id);
    let found = bySession.get(key);
    if (!found) bySession.set(key, (found = { labels: [], data: [] }));
    return found;
  };
  for (const l of labels) entry(l['session_id']).labels.push(l);
  for (const d of data) entry(d['session_id']).data.push(d);
  const out: StoredWindow['sessionSignatures'] = new Map();
  for (const [id, s] of bySession)
    out.set(id, {
      labels: sessionAnnotations(s.labels.map(asLabel), undefined),
      withData: sessionAnnotations(
        s.labels.map(asLabel),
        s.data.map((d) => ({ key: d['key'], value: d['value'] })),
      ),
    });
  return out;
}

/** The stored comment and labels of each annotated message. */
function signMessages(annotated: readonly PlainRow[], labels: readonly PlainRow[]): Map<string, string> {
  const byMessage = new Map<string, PlainRow[]>();
  for (const l of labels) {
    const id = String(l['question_id']);
    const list = byMessage.get(id);
    if (list) list.push(l);
    else byMessage.set(id, [l]);
  }
  return new Map(
    annotated.map((m) => {
      const id = String(m['question_id']);
      return [id, messageAnnotations(m['comment'], (byMessage.get(id) ?? []).map(asLabel))];
    }),
  );
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

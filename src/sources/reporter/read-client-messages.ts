// The messages of a look-back window's sessions whose delivery status can still change, read from
// messages/by-client: its records are whole messages with their status, so one paged read per client brings
// both the rows and the statuses (reading the sessions' messages with messages/filter, then their statuses
// with by-client, moved them twice). A session for which the client's read brought fewer messages than the
// warehouse holds (a server whose by-client differs, a record without its session id) is left to the caller
// to read with messages/filter, as are sessions whose client or bot is unknown.
import { fastMessage } from '../../platform/reporter/fast-parse.js';
import type { ReporterHttp } from '../../platform/reporter/reporter-http.js';
import { message } from '../../platform/reporter/schemas.js';
import { type Mapped, parseAll, toMessageRows } from './map-records.js';
import type { WindowMessage } from './read-window.js';

/** A stored session of the window with a message whose status can still change. */
export interface UnsettledSession {
  sessionId: string;
  clientId: string | null;
  botId: string | null;
  channel: string;
  /** Its messages in the window, as stored. */
  messages: number;
}

export interface ClientMessagesRead {
  messages: Mapped<WindowMessage>[];
  /** question_id -> status of every message read (for the window's status step, which need not ask again). */
  statuses: Map<string, string | null>;
  /** Sessions whose messages must be read otherwise. */
  incomplete: string[];
}

interface Page {
  paging?: { totalCount?: number; pageSize?: number };
  messages?: unknown[];
}

export async function readClientMessages(
  http: ReporterHttp,
  sessions: readonly UnsettledSession[],
  o: { project: string; runId: string; pageSize: number; from: number; to: number },
): Promise<ClientMessagesRead> {
  const out: ClientMessagesRead = { messages: [], statuses: new Map(), incomplete: [] };
  const groups = new Map<string, UnsettledSession[]>();
  for (const s of sessions) {
    if (s.clientId === null || s.botId === null) {
      out.incomplete.push(s.sessionId);
      continue;
    }
    const key = `${s.botId}\u0000${s.clientId}`;
    const group = groups.get(key);
    if (group) group.push(s);
    else groups.set(key, [s]);
  }
  const context = {
    runId: o.runId,
    project: o.project,
    endpoint: 'messages/by-client',
    idField: 'questionId',
  };
  await Promise.all(
    [...groups.values()].map(async (group) => {
      const first = group[0]!;
      const bySession = new Map(group.map((s) => [s.sessionId, { session: s, rows: [] as WindowMessage[] }]));
      for (let page = 0; ; page++) {
        const answer = await http.json<Page>({
          method: 'GET',
          op: 'messages/by-client',
          query: {
            clientId: first.clientId!,
            botId: first.botId!,
            startTime: new Date(o.from).toISOString(),
            endTime: new Date(o.to - 1).toISOString(),
            sort: 'asc',
            page,
            size: o.pageSize,
          },
        });
        const records = answer?.messages ?? [];
        const parsed = parseAll(records, message, context, fastMessage);
        for (const reject of parsed.rejects) out.messages.push({ reject });
        for (const m of parsed.ok) {
          const entry = m.sessionId ? bySession.get(m.sessionId) : undefined;
          if (!entry) continue;
          const status = m.status ?? null;
          const rows = toMessageRows(o.project, m, entry.session.sessionId, status);
          rows.row.channel_type = entry.session.channel;
          entry.rows.push({
            ...rows,
            channel: entry.session.channel,
            clientId: first.clientId!,
            botId: first.botId!,
          });
        }
        const total = answer?.paging?.totalCount ?? 0;
        const size = answer?.paging?.pageSize ?? o.pageSize;
        if (records.length === 0 || (page + 1) * size >= total) break;
      }
      for (const { session, rows } of bySession.values()) {
        if (rows.length < session.messages) {
          out.incomplete.push(session.sessionId);
          continue;
        }
        for (const row of rows) {
          out.messages.push({ ok: row });
          out.statuses.set(row.row.question_id, row.row.status);
        }
      }
    }),
  );
  return out;
}

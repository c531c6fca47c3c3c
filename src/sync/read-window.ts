// Reads one time window [from, to) of one project: sessions by start time (with labels and, on v1,
// sessionData), messages by timestamp (messages/filter), delivery statuses from messages/by-session for
// the status channels only, and clients last active in the window. Re-reads the window when paging
// drifted; asks the caller to split it when it holds too many sessions.
import { EtlError } from '../errors.js';
import { clientActivityFilter, messageTimeFilter, sessionStartFilter } from '../reporter/filters.js';
import type { ReporterHttp } from '../reporter/http.js';
import { type PagedRead, readAllPages } from '../reporter/paging.js';
import type { WindowBatch } from '../warehouse/rows.js';
import {
  normaliseChannel,
  parseClients,
  parseExtendedMessages,
  parseMessages,
  parseSessions,
  STATUS_CHANNELS,
  toClientRow,
  toMessageRows,
  toSessionRows,
} from './map-records.js';

export interface ReadWindowOptions {
  project: string;
  runId: string;
  from: number;
  to: number;
  pageSize: number;
  maxSessions: number;
  durationUnit: 'ms' | 's';
  /** Known latest statuses of messages of these sessions (to skip sessions whose statuses are final). */
  knownStatuses(sessionIds: string[]): Promise<Map<string, string | null>>;
  maxAttempts?: number;
  now: () => number;
}

export type WindowRead =
  | { tooLarge: true; sessions: number }
  | { tooLarge: false; batch: Omit<WindowBatch, 'watermark'> };

const idField = (field: string) => (record: unknown) => {
  const value =
    typeof record === 'object' && record !== null ? (record as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

/** A status that will not change any more on that channel. */
export function isFinalStatus(channel: string, status: string | null | undefined): boolean {
  if (status === 'READ' || status === 'NOT_SENT' || status === 'NOT_DELIVERED') return true;
  return status === 'DELIVERED' && channel === 'telegram';
}

async function readConsistent(
  read: () => Promise<PagedRead>,
  what: string,
  attempts: number,
): Promise<PagedRead> {
  let last: PagedRead | undefined;
  for (let n = 0; n < attempts; n++) {
    last = await read();
    if (last.complete || last.tooLarge) return last;
  }
  throw new EtlError(
    'sync.window_unstable',
    `${what} kept changing while it was paged (${last?.problem}); try again later`,
    { kind: 'transient' },
  );
}

export async function readWindow(http: ReporterHttp, o: ReadWindowOptions): Promise<WindowRead> {
  const startRequests = http.requests;
  const attempts = o.maxAttempts ?? 4;
  const label = `window ${new Date(o.from).toISOString()} – ${new Date(o.to).toISOString()}`;
  const ctx = { runId: o.runId, project: o.project };

  const sessionsRead = await readConsistent(
    () =>
      readAllPages(http, {
        op: 'sessions/filter',
        key: 'sessions',
        body: { filters: [sessionStartFilter(o.from, o.to)] },
        query: {
          needToReturnSessionLabels: true,
          ...(http.api === 'v1' ? { needToReturnSessionData: true } : {}),
        },
        pageSize: o.pageSize,
        idOf: idField('sessionId'),
        stopAbove: o.maxSessions,
      }),
    `sessions of ${label}`,
    attempts,
  );
  if (sessionsRead.tooLarge) return { tooLarge: true, sessions: sessionsRead.totalCount };

  const [messagesRead, clientsRead] = await Promise.all([
    readConsistent(
      () =>
        readAllPages(http, {
          op: 'messages/filter',
          key: 'messages',
          body: { filters: [messageTimeFilter(o.from, o.to)] },
          pageSize: o.pageSize,
          idOf: idField('questionId'),
        }),
      `messages of ${label}`,
      attempts,
    ),
    readConsistent(
      () =>
        readAllPages(http, {
          op: 'clients/filter',
          key: 'clients',
          body: { filters: [clientActivityFilter(o.from, o.to)] },
          pageSize: o.pageSize,
          idOf: idField('id'),
        }),
      `clients of ${label}`,
      attempts,
    ),
  ]);

  const sessions = parseSessions(sessionsRead.records, ctx);
  const extended = parseExtendedMessages(messagesRead.records, ctx);
  const clients = parseClients(clientsRead.records, ctx);
  const rejects = [...sessions.rejects, ...extended.rejects, ...clients.rejects];

  // statuses: only messages/by-session has them, and only the status channels need them
  const windowMessagesBySession = new Map<string, { channel: string; ids: string[] }>();
  for (const m of extended.ok) {
    const channel = normaliseChannel(m.channelType);
    if (!STATUS_CHANNELS.has(channel)) continue;
    const entry = windowMessagesBySession.get(m.sessionId) ?? { channel, ids: [] };
    entry.ids.push(m.questionId);
    windowMessagesBySession.set(m.sessionId, entry);
  }
  const known =
    windowMessagesBySession.size > 0
      ? await o.knownStatuses([...windowMessagesBySession.keys()])
      : new Map<string, string | null>();
  const toFetch = [...windowMessagesBySession.entries()].filter(
    ([, e]) => !e.ids.every((id) => isFinalStatus(e.channel, known.get(id))),
  );
  const fetched = new Map<string, string | null>();
  await Promise.all(
    toFetch.map(async ([sessionId]) => {
      for (let page = 0; ; page++) {
        const answer = await http.json<{
          paging?: { totalCount?: number; pageSize?: number };
          messages?: unknown[];
        }>({
          method: 'GET',
          op: 'messages/by-session',
          query: { sessionId, page, size: o.pageSize },
        });
        const parsed = parseMessages(answer?.messages ?? [], ctx);
        rejects.push(...parsed.rejects);
        for (const m of parsed.ok) fetched.set(m.questionId, m.status ?? null);
        const total = answer?.paging?.totalCount ?? 0;
        const size = answer?.paging?.pageSize ?? o.pageSize;
        if ((answer?.messages?.length ?? 0) === 0 || (page + 1) * size >= total) break;
      }
    }),
  );

  const batch: Omit<WindowBatch, 'watermark'> = {
    project: o.project,
    runId: o.runId,
    from: o.from,
    to: o.to,
    sessions: [],
    sessionLabels: [],
    sessionData: [],
    sessionDataFor: [],
    messages: [],
    messageLabels: [],
    clients: clients.ok.map((c) => toClientRow(o.project, c)),
    rejects,
    seenAt: o.now(),
    requests: 0,
  };
  for (const s of sessions.ok) {
    const mapped = toSessionRows(o.project, s, o.durationUnit);
    batch.sessions.push(mapped.row);
    batch.sessionLabels.push(...mapped.labels);
    if (mapped.hasData) {
      batch.sessionData.push(...mapped.data);
      batch.sessionDataFor.push(s.sessionId);
    }
  }
  for (const m of extended.ok) {
    const channel = normaliseChannel(m.channelType);
    const status = STATUS_CHANNELS.has(channel)
      ? fetched.has(m.questionId)
        ? fetched.get(m.questionId)!
        : (known.get(m.questionId) ?? null)
      : null;
    const mapped = toMessageRows(o.project, m, m.sessionId, status);
    batch.messages.push(mapped.row);
    batch.messageLabels.push(...mapped.labels);
  }
  batch.requests = http.requests - startRequests;
  return { tooLarge: false, batch };
}

// Reads one time window [from, to) of one project: sessions by start time (with labels and, on v1,
// sessionData), messages by timestamp (messages/filter), delivery statuses for the status channels only
// (read-statuses.ts: per client, read ahead), and clients last active in the window. Re-reads the window when paging
// drifted; asks the caller to split it when it holds too many sessions or its rows too many bytes. Each record becomes its rows as
// its page arrives: a window holds compact rows, never all its wire records at once. fetchWindow (the reads,
// which run-sync may start ahead: read-ahead.ts) and assembleWindow (the statuses and the batch, window after
// window in order) are its two halves.
import { EtlError } from '../../errors.js';
import {
  clientActivityFilter,
  messageTimeFilter,
  type ReporterFilter,
  sessionStartFilter,
} from '../../platform/reporter/filters.js';
import { type PagedRead, type PagedRequest, readAllPages } from '../../platform/reporter/paging.js';
import type { ReporterHttp } from '../../platform/reporter/reporter-http.js';
import type { ClientRow, MessageLabelRow, MessageRow, RejectRow, WindowBatch } from '../../warehouse/rows.js';
import { estimateRowBytes, estimateRowsBytes } from './estimate-rows-bytes.js';
import {
  CLIENT_RECORDS,
  EXTENDED_MESSAGE_RECORDS,
  type Mapped,
  mapRecord,
  SESSION_RECORDS,
  STATUS_CHANNELS,
  toClientRow,
  toMessageRows,
  toSessionRows,
} from './map-records.js';
import { type ClientStatusCache, readStatuses, type StatusSession } from './read-statuses.js';
import { countStatusClients, type ReportedStatuses, type StatusReports } from './status-reports.js';

export interface ReadWindowOptions {
  project: string;
  runId: string;
  from: number;
  to: number;
  pageSize: number;
  maxSessions: number;
  /** The window's rows may take at most this many bytes (estimateBatchBytes); above it, it is too large. */
  maxBytes: number;
  durationUnit: 'ms' | 's';
  /**
   * Known latest statuses of the window's messages of these sessions (to skip sessions whose statuses
   * are final); only ids of messages read in the window are looked up.
   */
  knownStatuses(sessionIds: string[]): Promise<Map<string, string | null>>;
  /** The run's end: statuses are read ahead up to it (read-statuses.ts). */
  rangeTo: number;
  /** Statuses read ahead by earlier windows of the run. */
  statusCache: ClientStatusCache;
  /** Statuses of a whole window from one report task, when it has enough clients (status-reports.ts). */
  statusReports?: StatusReports | undefined;
  maxAttempts?: number;
  now: () => number;
}

export type WindowRead =
  | { tooLarge: true; sessions: number; bytes?: number }
  | { tooLarge: false; batch: Omit<WindowBatch, 'watermark'> };

const idField = (field: string) => (record: unknown) => {
  const value =
    typeof record === 'object' && record !== null ? (record as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

function splitMapped<T>(records: readonly Mapped<T>[]): { ok: T[]; rejects: RejectRow[] } {
  const ok: T[] = [];
  const rejects: RejectRow[] = [];
  for (const r of records) {
    if (r.reject) rejects.push(r.reject);
    else ok.push(r.ok as T);
  }
  return { ok, rejects };
}

export interface WindowMessage {
  row: MessageRow;
  labels: MessageLabelRow[];
  /** Normalised channel of the message. */
  channel: string;
  /** The session's client and bot (statuses are asked for per client). */
  clientId: string | undefined;
  botId: string | undefined;
}

/** A status that will not change any more on that channel. */
export function isFinalStatus(channel: string, status: string | null | undefined): boolean {
  if (status === 'READ' || status === 'NOT_SENT' || status === 'NOT_DELIVERED') return true;
  return status === 'DELIVERED' && channel === 'telegram';
}

export async function readConsistent<T>(
  read: () => Promise<PagedRead<T>>,
  what: string,
  attempts: number,
): Promise<PagedRead<T>> {
  let last: PagedRead<T> | undefined;
  for (let n = 0; n < attempts; n++) {
    last = await read();
    if (last.complete || last.tooLarge || last.dropped) return last;
  }
  throw new EtlError(
    'sync.window_unstable',
    `${what} kept changing while it was paged (${last?.problem}); try again later`,
    { kind: 'transient' },
  );
}

/** A session record mapped to its rows (and its id, for sessionData replacement). */
export type MappedSession = ReturnType<typeof toSessionRows> & { sessionId: string };

/** What a window's reads brought, each record mapped or quarantined. */
export interface WindowRecords {
  sessions: Mapped<MappedSession>[];
  messages: Mapped<WindowMessage>[];
  clients: Mapped<ClientRow>[];
}

type ReadContext = Pick<ReadWindowOptions, 'project' | 'runId' | 'pageSize' | 'durationUnit'>;

/** A paged sessions/filter read (labels, and sessionData on v1) with `filters` ANDed. */
export function sessionsRequest(
  http: ReporterHttp,
  o: ReadContext,
  filters: ReporterFilter[],
  stopAbove?: number,
): PagedRequest<Mapped<MappedSession>> {
  const ctx = { runId: o.runId, project: o.project };
  return {
    op: 'sessions/filter',
    key: 'sessions',
    body: { filters },
    query: {
      needToReturnSessionLabels: true,
      ...(http.api === 'v1' ? { needToReturnSessionData: true } : {}),
    },
    pageSize: o.pageSize,
    idOf: idField('sessionId'),
    ...(stopAbove !== undefined ? { stopAbove } : {}),
    transform: mapRecord(SESSION_RECORDS, ctx, (s) => ({
      ...toSessionRows(o.project, s, o.durationUnit),
      sessionId: s.sessionId,
    })),
  };
}

/** A paged messages/filter read with `filters` ANDed. */
export function messagesRequest(
  o: ReadContext,
  filters: ReporterFilter[],
): PagedRequest<Mapped<WindowMessage>> {
  const ctx = { runId: o.runId, project: o.project };
  return {
    op: 'messages/filter',
    key: 'messages',
    body: { filters },
    pageSize: o.pageSize,
    idOf: idField('questionId'),
    transform: mapRecord(EXTENDED_MESSAGE_RECORDS, ctx, (m): WindowMessage => {
      const { row, labels } = toMessageRows(o.project, m, m.sessionId, null);
      // the row's channel_type is the message's channel, normalised
      const channel = row.channel_type!;
      return { row, labels, channel, clientId: m.client.id || undefined, botId: m.botId || undefined };
    }),
  };
}

/** A paged clients/filter read with `filters` ANDed. */
export function clientsRequest(o: ReadContext, filters: ReporterFilter[]): PagedRequest<Mapped<ClientRow>> {
  const ctx = { runId: o.runId, project: o.project };
  return {
    op: 'clients/filter',
    key: 'clients',
    body: { filters },
    pageSize: o.pageSize,
    idOf: idField('id'),
    transform: mapRecord(CLIENT_RECORDS, ctx, (c) => toClientRow(o.project, c)),
  };
}

/** Rows of the mapped sessions, for the size estimate. */
export function sessionsBytesOf(sessions: readonly Mapped<MappedSession>[]): number {
  let bytes = 0;
  for (const { ok } of sessions)
    if (ok) bytes += estimateRowBytes(ok.row) + estimateRowsBytes(ok.labels) + estimateRowsBytes(ok.data);
  return bytes;
}

/** Rows of the mapped messages (each with its labels), for the size estimate. */
function messagesBytesOf(messages: readonly WindowMessage[]): number {
  let bytes = 0;
  for (const m of messages) bytes += estimateRowBytes(m.row) + estimateRowsBytes(m.labels);
  return bytes;
}

/** A window's records before its statuses: too large (split it), or its records with its report started. */
export type FetchedWindow =
  | { tooLarge: true; sessions: number; bytes?: number }
  | { tooLarge: false; records: WindowRecords; reported?: ReportedStatuses };

/**
 * Reads a window's sessions, messages and clients, all three at once (the messages' and clients' reads are
 * dropped when the sessions say the window is too large), and starts its statuses report once its sessions
 * are known (unless one covering it was started ahead: status-reports.ts).
 */
export async function fetchWindow(http: ReporterHttp, o: ReadWindowOptions): Promise<FetchedWindow> {
  const attempts = o.maxAttempts ?? 4;
  const label = windowLabel(o);
  // the messages' and clients' page 0 go with the sessions' page 0; their other pages once the sessions fit
  let fits!: (yes: boolean) => void;
  const sessionsFit = new Promise<boolean>((resolve) => {
    fits = resolve;
  });
  const proceed = () => sessionsFit;
  const others = Promise.all([
    readConsistent(
      () => readAllPages(http, { ...messagesRequest(o, [messageTimeFilter(o.from, o.to)]), proceed }),
      `messages of ${label}`,
      attempts,
    ),
    readConsistent(
      () => readAllPages(http, { ...clientsRequest(o, [clientActivityFilter(o.from, o.to)]), proceed }),
      `clients of ${label}`,
      attempts,
    ),
  ]);
  // awaited below, or dropped with the window; this keeps its failure from being unhandled meanwhile
  others.catch(() => undefined);
  try {
    const sessions = await fetchSessions(http, o, label, attempts);
    fits(!sessions.tooLarge);
    if (sessions.tooLarge) return sessions;
    // the window's statuses report runs while its messages are paged
    const reported = o.statusReports?.begin(o.from, o.to, countStatusClients(sessions.rows));
    const [messagesRead, clientsRead] = await others;
    return {
      tooLarge: false,
      records: { sessions: sessions.records, messages: messagesRead.records, clients: clientsRead.records },
      ...(reported === undefined ? {} : { reported }),
    };
  } finally {
    fits(false);
  }
}

/** The window's sessions, or too large: by their count (page 0 tells), or by their rows' bytes. */
async function fetchSessions(
  http: ReporterHttp,
  o: ReadWindowOptions,
  label: string,
  attempts: number,
): Promise<
  | { tooLarge: true; sessions: number; bytes?: number }
  | { tooLarge: false; records: Mapped<MappedSession>[]; rows: MappedSession['row'][] }
> {
  const read = await readConsistent(
    () => readAllPages(http, sessionsRequest(http, o, [sessionStartFilter(o.from, o.to)], o.maxSessions)),
    `sessions of ${label}`,
    attempts,
  );
  if (read.tooLarge) return { tooLarge: true, sessions: read.totalCount };
  // the sessions alone (their first and last questions) may already be too large: no need for the rest
  const bytes = sessionsBytesOf(read.records);
  if (bytes > o.maxBytes) return { tooLarge: true, sessions: read.records.length, bytes };
  return {
    tooLarge: false,
    records: read.records,
    rows: read.records.flatMap((r) => (r.ok ? [r.ok.row] : [])),
  };
}

export async function readWindow(http: ReporterHttp, o: ReadWindowOptions): Promise<WindowRead> {
  const fetched = await fetchWindow(http, o);
  if (fetched.tooLarge) return fetched;
  return assembleWindow(http, o, fetched.records, fetched.reported);
}

export const windowLabel = (o: { from: number; to: number }) =>
  `window ${new Date(o.from).toISOString()} – ${new Date(o.to).toISOString()}`;

/**
 * The window's batch from what its reads brought: too large by size, or the rows with the delivery statuses
 * of the status channels (read-statuses.ts says how they are asked for).
 */
export async function assembleWindow(
  http: ReporterHttp,
  o: ReadWindowOptions,
  records: WindowRecords,
  reported?: ReportedStatuses,
): Promise<WindowRead> {
  const sessions = splitMapped(records.sessions);
  const messages = splitMapped(records.messages);
  const clients = splitMapped(records.clients);
  const rejects = [...sessions.rejects, ...messages.rejects, ...clients.rejects];
  // too large by size: split before the statuses are asked for
  const bytes =
    sessionsBytesOf(records.sessions) +
    messagesBytesOf(messages.ok) +
    estimateRowsBytes(clients.ok) +
    estimateRowsBytes(rejects);
  if (bytes > o.maxBytes) return { tooLarge: true, sessions: sessions.ok.length, bytes };

  // statuses: only the status channels have them (read-statuses.ts says how they are asked for)
  const windowMessagesBySession = new Map<string, StatusSession>();
  for (const m of messages.ok) {
    if (!STATUS_CHANNELS.has(m.channel)) continue;
    const entry = windowMessagesBySession.get(m.row.session_id);
    if (entry) entry.ids.push(m.row.question_id);
    else
      windowMessagesBySession.set(m.row.session_id, {
        sessionId: m.row.session_id,
        channel: m.channel,
        clientId: m.clientId,
        botId: m.botId,
        ids: [m.row.question_id],
      });
  }
  const known =
    windowMessagesBySession.size > 0
      ? await o.knownStatuses([...windowMessagesBySession.keys()])
      : new Map<string, string | null>();
  const toFetch = [...windowMessagesBySession.values()].filter(
    (e) => !e.ids.every((id) => isFinalStatus(e.channel, known.get(id))),
  );
  const statusRead = await readStatuses(http, toFetch, {
    project: o.project,
    runId: o.runId,
    pageSize: o.pageSize,
    from: o.from,
    rangeTo: o.rangeTo,
    cache: o.statusCache,
    reported,
  });
  rejects.push(...statusRead.rejects);
  const fetched = statusRead.statuses;

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
    clients: clients.ok,
    rejects,
    seenAt: o.now(),
    // the sync's, at the commit: the run's requests since the commit before (run-sync.ts)
    requests: 0,
  };
  for (const mapped of sessions.ok) {
    batch.sessions.push(mapped.row);
    batch.sessionLabels.push(...mapped.labels);
    if (mapped.hasData) {
      batch.sessionData.push(...mapped.data);
      batch.sessionDataFor.push(mapped.sessionId);
    }
  }
  for (const m of messages.ok) {
    const id = m.row.question_id;
    m.row.status = STATUS_CHANNELS.has(m.channel)
      ? fetched.has(id)
        ? fetched.get(id)!
        : (known.get(id) ?? null)
      : null;
    batch.messages.push(m.row);
    batch.messageLabels.push(...m.labels);
  }
  return { tooLarge: false, batch };
}

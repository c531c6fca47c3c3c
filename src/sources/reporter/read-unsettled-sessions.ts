// The look-back's sessions whose delivery status can still change (stored-window.ts): which of their messages
// to write again, and where their statuses come from. With the window's `messages` report task (status-reports.ts,
// when the window has enough such clients) its statuses are compared with the stored ones, and only the sessions
// with a message whose status moved are read again (messages/filter by SESSION_ID, a few requests): in place of
// one messages/by-client read per client, the most of a quiet incremental run's time. Without a report (too few
// clients, REPORTER_STATUS_READ=by-client, or the report failed) they are read per client (read-client-messages.ts).
// Invariant: every message of these sessions whose platform status differs from the stored one is written again
// with the platform's row; the others are not (they are the warehouse's rows already).
import type { ReporterHttp } from '../../platform/reporter/reporter-http.js';
import type { Mapped } from './map-records.js';
import { readClientMessages } from './read-client-messages.js';
import type { LookbackWindowOptions } from './read-lookback-window.js';
import type { WindowMessage } from './read-window.js';
import type { ReportStatuses } from './report-statuses.js';
import type { ReportedStatuses } from './status-reports.js';

export interface UnsettledRead {
  /** Their messages to write again: those whose status moved (labels and comments are the look-back's other reads'). */
  messages: Mapped<WindowMessage>[];
  /** Sessions whose messages the caller reads whole with messages/filter (the per-client read missed some). */
  incomplete: string[];
  /** The window's statuses report, for the window's status step (undefined: read per client). */
  reported?: ReportStatuses;
}

export interface UnsettledReadOptions {
  /** The window's statuses report, begun with the look-back read (undefined: none was worth it). */
  reported: ReportedStatuses | undefined;
  /** The window's messages of these sessions, with messages/filter. */
  readSessions(sessionIds: string[]): Promise<Mapped<WindowMessage>[]>;
}

/**
 * Sessions named in one report's SESSION_ID filter (a body of about 80 KB); with more, the report holds the whole
 * window's status channels (more rows to wait for, the same statuses).
 */
export const REPORT_MAX_SESSIONS = 2_000;

/** The report of the window's unsettled sessions' messages, when they have clients enough to be worth one. */
export function beginUnsettledReport(o: LookbackWindowOptions): ReportedStatuses | undefined {
  const sessions = o.stored.unsettledSessions;
  if (sessions.size === 0) return undefined;
  const ids = sessions.size <= REPORT_MAX_SESSIONS ? [...sessions.keys()] : undefined;
  return o.statusReports?.begin(o.from, o.to, countUnsettledClients(sessions.values()), ids);
}

/** Distinct (bot, client) of the unsettled sessions (each without one counts alone): what per-client reads ask. */
function countUnsettledClients(
  sessions: Iterable<{ clientId: string | null; botId: string | null }>,
): number {
  const clients = new Set<string>();
  let alone = 0;
  for (const s of sessions) {
    if (s.clientId === null || s.botId === null) alone++;
    else clients.add(`${s.botId}\u0000${s.clientId}`);
  }
  return clients.size + alone;
}

export async function readUnsettledSessions(
  http: ReporterHttp,
  o: LookbackWindowOptions,
  u: UnsettledReadOptions,
): Promise<UnsettledRead> {
  const reportRead = await u.reported;
  // the report's id column is the one holding the stored messages' ids; none: read per client
  const report = reportRead?.lookup(o.stored.unsettledMessages.keys());
  if (reportRead !== undefined && report !== undefined) return await fromReport(o, u, report, reportRead);
  const fromClients = await readClientMessages(http, [...o.stored.unsettledSessions.values()], {
    project: o.project,
    runId: o.runId,
    pageSize: o.pageSize,
    from: o.from,
    to: o.to,
  });
  // the window's status step takes these instead of asking again
  for (const [id, status] of fromClients.statuses) o.statusCache.put(id, status, o.rangeTo);
  const stored = await o.knownStatuses([...o.stored.unsettledSessions.keys()]);
  const isWritten = (m: Mapped<WindowMessage>) =>
    m.ok === undefined || writeAgain(m.ok.row.status, stored.get(m.ok.row.question_id));
  return { messages: fromClients.messages.filter(isWritten), incomplete: fromClients.incomplete };
}

/** The sessions with a stored status the report contradicts (or a message it lacks), read again. */
async function fromReport(
  o: LookbackWindowOptions,
  u: UnsettledReadOptions,
  report: Map<string, string | null>,
  reportRead: ReportStatuses,
): Promise<UnsettledRead> {
  const moved = new Set<string>();
  for (const [id, stored] of o.stored.unsettledMessages)
    if (!report.has(id) || report.get(id) !== stored.status) moved.add(stored.sessionId);
  const read = moved.size > 0 ? await u.readSessions([...moved]) : [];
  // the rows read now take the report's statuses in the window's status step; a message the report lacks is
  // written whatever (its status is asked per client there)
  const isWritten = (m: Mapped<WindowMessage>) => {
    if (m.ok === undefined) return true;
    const id = m.ok.row.question_id;
    return !report.has(id) || writeAgain(report.get(id)!, o.stored.unsettledMessages.get(id)?.status);
  };
  return { messages: read.filter(isWritten), incomplete: [], reported: reportRead };
}

/**
 * Whether a message read again is written: its status moved (or it is not stored: `stored` undefined). Texts and
 * times do not change, and labels and comments are read by their own filters (read-lookback-window.ts), so a
 * message whose status is the stored one is the warehouse's row already.
 */
function writeAgain(status: string | null, stored: string | null | undefined): boolean {
  return stored === undefined || stored !== status;
}

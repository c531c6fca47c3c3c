// Reads a look-back window of an incremental run (one the previous runs already stored, before the
// watermark) by asking only for what can have changed there, instead of every record again:
//   1. the platform's counts of the window's sessions and messages against the warehouse's: a difference
//      (something arrived late, a record was quarantined) means the whole window is read as before;
//   2. sessions: those labelled now (SESSION_LABELS EXISTS), those with messages since the watermark (their
//      counts, last question and duration moved on), and those stored with labels that the first read did not
//      return (their labels were removed);
//   3. messages: those labelled now (LOG_LABELS EXISTS), those with a comment now (COMMENT_TEXT contains ""),
//      those of the sessions stored with a status that can still change whose status moved (the window's
//      statuses report, begun first, against the stored statuses; or one messages/by-client read per client:
//      read-unsettled-sessions.ts), and every message of the sessions with a label or comment the first two
//      reads did not return (removed), or that by-client did not bring whole;
//   4. clients last active in the window, as before;
// of what 2 and 3 read, only what differs from the stored rows (labels, comment, sessionData, status) or has new
// messages is written again (annotation-signatures.ts); then the statuses and the batch as for any window
// (read-window.ts). Rows are replaced by key, so a partial
// batch leaves the window's other rows as they are. A server that refuses one of these filters (400) gets
// the whole window read instead, and the rest of the run does the same.
import { EtlError } from '../../errors.js';
import {
  clientActivityFilter,
  messageTimeFilter,
  type ReporterFilter,
  sessionIdFilter,
  sessionStartFilter,
} from '../../platform/reporter/filters.js';
import { type PagedRequest, readAllPages } from '../../platform/reporter/paging.js';
import type { ReporterHttp } from '../../platform/reporter/reporter-http.js';
import { messageAnnotations, sessionAnnotations } from './annotation-signatures.js';
import type { Mapped } from './map-records.js';
import { beginUnsettledReport, readUnsettledSessions } from './read-unsettled-sessions.js';
import {
  assembleWindow,
  clientsRequest,
  type MappedSession,
  messagesRequest,
  type ReadWindowOptions,
  readConsistent,
  sessionsRequest,
  type WindowMessage,
  type WindowRead,
  windowLabel,
} from './read-window.js';
import type { StoredWindow } from './stored-window.js';

export interface LookbackWindowOptions extends ReadWindowOptions {
  /** The watermark the run started from: sessions with messages after it have changed. */
  since: number;
  stored: StoredWindow;
}

/** The window's read, or why it must be read whole. */
export type LookbackRead = WindowRead | { wholeWindow: string; refused?: true };

/** Session ids per SESSION_ID filter: a request body of a few kilobytes. */
const IDS_PER_REQUEST = 200;

const labelsExist = (key: 'SESSION_LABELS' | 'LOG_LABELS'): ReporterFilter => ({
  key,
  type: 'CHECKBOX',
  options: [],
  comparisonType: 'EXISTS',
});

/** Every message with a comment: any comment contains the empty string. */
const commentExists: ReporterFilter = {
  key: 'COMMENT_TEXT',
  type: 'TEXT',
  values: [''],
  comparisonType: 'CONTAINS',
  isCaseSensitive: true,
};

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The records of several reads, one per id (records without one, the rejects, are all kept). */
function union<T>(reads: readonly Mapped<T>[][], idOf: (row: T) => string): Mapped<T>[] {
  const byId = new Map<string, Mapped<T>>();
  const rejects: Mapped<T>[] = [];
  for (const records of reads)
    for (const r of records) {
      if (r.ok === undefined) rejects.push(r);
      else byId.set(idOf(r.ok), r);
    }
  return [...byId.values(), ...rejects];
}

async function totalCount(
  http: ReporterHttp,
  op: 'sessions/filter' | 'messages/filter',
  filters: ReporterFilter[],
): Promise<number | undefined> {
  const answer = await http.json<{ paging?: { totalCount?: unknown } }>({
    method: 'POST',
    read: true,
    op,
    query: { page: 0, size: 1 },
    body: { filters },
  });
  const total = answer?.paging?.totalCount;
  return typeof total === 'number' ? total : undefined;
}

/**
 * The labelled sessions read now whose labels (or sessionData) differ from the stored ones, and those with new
 * messages: a labelled session that did not change is the warehouse's row already.
 */
function changedSessions(
  labelled: readonly Mapped<MappedSession>[],
  grown: readonly Mapped<MappedSession>[],
  stored: StoredWindow,
): Mapped<MappedSession>[] {
  const grownIds = new Set(grown.flatMap((r) => (r.ok ? [r.ok.sessionId] : [])));
  return labelled.filter((r) => {
    if (r.ok === undefined || grownIds.has(r.ok.sessionId)) return true;
    const before = stored.sessionSignatures.get(r.ok.sessionId);
    if (before === undefined) return true;
    const now = sessionAnnotations(r.ok.labels, r.ok.hasData ? r.ok.data : undefined);
    return now !== (r.ok.hasData ? before.withData : before.labels);
  });
}

/** The labelled and commented messages read now whose comment or labels differ from the stored ones. */
function changedMessages(
  read: readonly Mapped<WindowMessage>[],
  stored: StoredWindow,
): Mapped<WindowMessage>[] {
  return read.filter(
    (r) =>
      r.ok === undefined ||
      messageAnnotations(r.ok.row.comment, r.ok.labels) !==
        stored.messageSignatures.get(r.ok.row.question_id),
  );
}

export async function readLookbackWindow(
  http: ReporterHttp,
  o: LookbackWindowOptions,
): Promise<LookbackRead> {
  const attempts = o.maxAttempts ?? 4;
  const label = windowLabel(o);
  const window = { from: o.from, to: o.to };
  const read = <T>(request: PagedRequest<Mapped<T>>, what: string) =>
    readConsistent(() => readAllPages(http, request), `${what} of ${label}`, attempts).then((r) => r.records);

  try {
    const [sessionsTotal, messagesTotal] = await Promise.all([
      totalCount(http, 'sessions/filter', [sessionStartFilter(window.from, window.to)]),
      totalCount(http, 'messages/filter', [messageTimeFilter(window.from, window.to)]),
    ]);
    if (sessionsTotal !== o.stored.sessions || messagesTotal !== o.stored.messages)
      return {
        wholeWindow:
          `the platform has ${sessionsTotal} sessions and ${messagesTotal} messages in it, ` +
          `the warehouse ${o.stored.sessions} and ${o.stored.messages}`,
      };
    // the statuses report of the unsettled sessions (when worth one) runs while the changes are read
    const reported = beginUnsettledReport(o);

    const inWindow = sessionStartFilter(window.from, window.to);
    const [labelledSessions, grownSessions] = await Promise.all([
      read(sessionsRequest(http, o, [inWindow, labelsExist('SESSION_LABELS')]), 'labelled sessions'),
      o.since < o.rangeTo
        ? read(
            sessionsRequest(http, o, [inWindow, messageTimeFilter(o.since, o.rangeTo)]),
            'sessions with new messages',
          )
        : Promise.resolve([] as Mapped<MappedSession>[]),
    ]);
    const labelledNow = new Set(labelledSessions.flatMap((r) => (r.ok ? [r.ok.sessionId] : [])));
    const unlabelled = [...o.stored.labelledSessions].filter((id) => !labelledNow.has(id));
    const unlabelledSessions = await Promise.all(
      chunks(unlabelled, IDS_PER_REQUEST).map((ids) =>
        read(
          sessionsRequest(http, o, [inWindow, sessionIdFilter(ids)]),
          'sessions whose labels were removed',
        ),
      ),
    );

    const messageTime = messageTimeFilter(window.from, window.to);
    const [labelledMessages, commentedMessages, clients] = await Promise.all([
      read(messagesRequest(o, [messageTime, labelsExist('LOG_LABELS')]), 'labelled messages'),
      read(messagesRequest(o, [messageTime, commentExists]), 'commented messages'),
      read(clientsRequest(o, [clientActivityFilter(window.from, window.to)]), 'clients'),
    ]);
    const annotatedNow = new Set(
      [...labelledMessages, ...commentedMessages].flatMap((r) => (r.ok ? [r.ok.row.question_id] : [])),
    );
    const readSessions = async (ids: readonly string[]) =>
      (
        await Promise.all(
          chunks(ids, IDS_PER_REQUEST).map((part) =>
            read(
              messagesRequest(o, [messageTime, sessionIdFilter(part)]),
              'messages of sessions that can change',
            ),
          ),
        )
      ).flat();
    const unsettled = await readUnsettledSessions(http, o, { reported, readSessions });
    const toReread = new Set(unsettled.incomplete);
    for (const [questionId, sessionId] of o.stored.annotatedMessages)
      if (!annotatedNow.has(questionId)) toReread.add(sessionId);
    const rereadMessages = await readSessions([...toReread]);

    return await assembleWindow(
      http,
      o,
      {
        sessions: union<MappedSession>(
          [changedSessions(labelledSessions, grownSessions, o.stored), grownSessions, ...unlabelledSessions],
          (s) => s.sessionId,
        ),
        messages: union<WindowMessage>(
          [
            changedMessages([...labelledMessages, ...commentedMessages], o.stored),
            unsettled.messages,
            rereadMessages,
          ],
          (m) => m.row.question_id,
        ),
        clients,
      },
      unsettled.reported && Promise.resolve(unsettled.reported),
    );
  } catch (error) {
    if (error instanceof EtlError && error.code === 'reporter.bad_request')
      return {
        wholeWindow: `the platform refused a filter of the look-back read: ${error.message}`,
        refused: true,
      };
    throw error;
  }
}

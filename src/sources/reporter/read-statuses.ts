// Delivery statuses of a window's messages on the status channels (telegram, viber, vk): only
// messages/by-session, messages/by-client and the platform's messages report carry them. A session whose
// messages the window's report (status-reports.ts, when one was started) holds all takes them from it.
// Sessions whose messages all have a final status in the warehouse are skipped. The others are asked per client: one messages/by-client read (sorted oldest
// first, from the window's start to STATUS_LOOKAHEAD_MS later, bounded by the run's end) covers all of a
// client's sessions in the window and in the windows of the days after it; the statuses of those later
// messages wait in a run-wide cache (ClientStatusCache), so a returning client costs one read per
// look-ahead rather than one per session. A status read a few windows early is as good as one read then
// (the run reads a moment of the platform either way; the next run's look-back reads what moved since).
// A message that the client's read did not return (a server whose by-client differs, a page that drifted)
// is asked for with messages/by-session, as are sessions whose client or bot is unknown.
import { fastMessageStatus } from '../../platform/reporter/fast-parse.js';
import type { ReporterHttp } from '../../platform/reporter/reporter-http.js';
import { messageStatus } from '../../platform/reporter/schemas.js';
import type { RejectRow } from '../../warehouse/rows.js';
import { parseAll } from './map-records.js';
import type { ReportStatuses } from './report-statuses.js';

/** How far past a window's start one messages/by-client read reaches (later windows take from the cache). */
export const STATUS_LOOKAHEAD_MS = 7 * 24 * 3_600_000;

/** A session of the window whose messages need their statuses. */
export interface StatusSession {
  sessionId: string;
  channel: string;
  clientId: string | undefined;
  botId: string | undefined;
  /** The window's messages of the session. */
  ids: string[];
}

/** Statuses read ahead by messages/by-client, kept until a later window of the run takes them. */
export class ClientStatusCache {
  private readonly statuses = new Map<string, { status: string | null; until: number }>();

  get size(): number {
    return this.statuses.size;
  }

  has(id: string): boolean {
    return this.statuses.has(id);
  }

  put(id: string, status: string | null, until: number): void {
    this.statuses.set(id, { status, until });
  }

  /** The status, removed from the cache (each message is in one window). */
  take(id: string): string | null | undefined {
    const entry = this.statuses.get(id);
    if (entry === undefined) return undefined;
    this.statuses.delete(id);
    return entry.status;
  }

  /** Drops what no window from `from` on can take: the reads that ended at or before it. */
  dropBefore(from: number): void {
    for (const [id, entry] of this.statuses) if (entry.until <= from) this.statuses.delete(id);
  }
}

export interface ReadStatusesOptions {
  project: string;
  runId: string;
  pageSize: number;
  /** The window being read: [from, to). */
  from: number;
  /** The run's end: no read reaches past it. */
  rangeTo: number;
  cache: ClientStatusCache;
  /** The window's statuses from its report task (status-reports.ts), when one was started. */
  reported?: Promise<ReportStatuses | undefined> | undefined;
}

export interface StatusesRead {
  statuses: Map<string, string | null>;
  rejects: RejectRow[];
  /** Requests by operation, for the benchmark's account of what each lever saved. */
  byClientRequests: number;
  bySessionRequests: number;
}

interface StatusPage {
  paging?: { totalCount?: number; pageSize?: number };
  messages?: unknown[];
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function readStatuses(
  http: ReporterHttp,
  sessions: readonly StatusSession[],
  o: ReadStatusesOptions,
): Promise<StatusesRead> {
  const out: StatusesRead = { statuses: new Map(), rejects: [], byClientRequests: 0, bySessionRequests: 0 };
  o.cache.dropBefore(o.from);
  const ctx = { runId: o.runId, project: o.project };
  const unreported = takeReported(sessions, await o.reported, out.statuses);

  /** Pages through one operation, keeping every status it answers in `sink`. */
  const readPaged = async (
    op: 'messages/by-client' | 'messages/by-session',
    query: Record<string, string | number>,
    sink: (id: string, status: string | null) => void,
  ): Promise<void> => {
    for (let page = 0; ; page++) {
      const answer = await http.json<StatusPage>({
        method: 'GET',
        op,
        query: { ...query, page, size: o.pageSize },
      });
      if (op === 'messages/by-client') out.byClientRequests++;
      else out.bySessionRequests++;
      const parsed = parseAll(
        answer?.messages ?? [],
        messageStatus,
        { ...ctx, endpoint: op, idField: 'questionId' },
        fastMessageStatus,
      );
      out.rejects.push(...parsed.rejects);
      for (const m of parsed.ok) sink(m.questionId, m.status ?? null);
      const total = answer?.paging?.totalCount ?? 0;
      const size = answer?.paging?.pageSize ?? o.pageSize;
      if ((answer?.messages?.length ?? 0) === 0 || (page + 1) * size >= total) break;
    }
  };

  // one group per client and bot; sessions without either go by-session
  const groups = new Map<string, StatusSession[]>();
  const alone: StatusSession[] = [];
  for (const s of unreported) {
    if (s.clientId === undefined || s.botId === undefined) alone.push(s);
    else {
      const key = `${s.botId}\u0000${s.clientId}`;
      const group = groups.get(key);
      if (group) group.push(s);
      else groups.set(key, [s]);
    }
  }

  const until = Math.min(o.from + STATUS_LOOKAHEAD_MS, o.rangeTo);
  await Promise.all(
    [...groups.values()].map(async (group) => {
      const first = group[0]!;
      const cached = group.every((s) => s.ids.every((id) => o.cache.has(id)));
      if (!cached) {
        await readPaged(
          'messages/by-client',
          {
            clientId: first.clientId!,
            botId: first.botId!,
            startTime: iso(o.from),
            // inclusive on the platform: the last millisecond of the read
            endTime: iso(until - 1),
            sort: 'asc',
          },
          (id, status) => o.cache.put(id, status, until),
        );
      }
      for (const s of group) {
        if (s.ids.every((id) => o.cache.has(id))) {
          for (const id of s.ids) out.statuses.set(id, o.cache.take(id)!);
        } else alone.push(s);
      }
    }),
  );
  await Promise.all(
    alone.map((s) =>
      readPaged('messages/by-session', { sessionId: s.sessionId }, (id, status) =>
        out.statuses.set(id, status),
      ),
    ),
  );
  return out;
}

/**
 * Sets the statuses of the sessions the report holds whole (looked up by the window's message ids, which choose
 * the report's id column); returns the others (read per client).
 */
function takeReported(
  sessions: readonly StatusSession[],
  report: ReportStatuses | undefined,
  statuses: Map<string, string | null>,
): readonly StatusSession[] {
  if (report === undefined || sessions.length === 0) return sessions;
  const reported = report.lookup(sessions.flatMap((s) => s.ids));
  if (reported === undefined) return sessions;
  const others: StatusSession[] = [];
  for (const s of sessions) {
    if (s.ids.every((id) => reported.has(id))) for (const id of s.ids) statuses.set(id, reported.get(id)!);
    else others.push(s);
  }
  return others;
}

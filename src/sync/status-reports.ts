// When a window's delivery statuses come from one platform report task (read-status-report.ts) rather than
// from one messages/by-client read per client (read-statuses.ts): when the window has at least
// REPORT_MIN_CLIENTS clients on the status channels (a report costs about that many requests), and until the
// platform refuses the operation itself (401/403/404/400: the rest of the run reads per client). A report is
// started as soon as the window's sessions are read, so it runs while its messages are paged. Invariant: a
// report that fails is logged and its window falls back to the per-client reads; nothing is lost.
import type { Logger } from '../log.js';
import type { ReporterHttp } from '../reporter/reporter-http.js';
import { STATUS_CHANNELS } from './map-records.js';
import { readStatusReport } from './read-status-report.js';

/** Clients on the status channels from which a report is cheaper than reading per client. */
export const REPORT_MIN_CLIENTS = 8;

export interface StatusReportsOptions {
  /** Its own transports (long polls take none of the reads' slots): JSON answers, and the CSV file as text. */
  http: ReporterHttp;
  fileHttp: ReporterHttp;
  log: Logger;
  waitMs: number;
  pollMs?: number;
  signal?: AbortSignal | undefined;
}

/** A window's statuses from its report, or undefined when the window must read them per client. */
export type ReportedStatuses = Promise<Map<string, string | null> | undefined>;

export class StatusReports {
  /** Requests the reports made, reports that completed, and those whose window fell back. */
  requests = 0;
  completed = 0;
  failed = 0;
  private refused = false;

  constructor(private readonly o: StatusReportsOptions) {}

  /** The 429s the reports' requests were answered. */
  get throttled(): number {
    return this.o.http.throttled + this.o.fileHttp.throttled;
  }

  /**
   * Starts the report of [from, to) (of `sessionIds` only, when given) when `statusClients` is worth one; never
   * rejects.
   */
  begin(
    from: number,
    to: number,
    statusClients: number,
    sessionIds?: readonly string[],
  ): ReportedStatuses | undefined {
    if (this.refused || statusClients < REPORT_MIN_CLIENTS) return undefined;
    return this.read(from, to, sessionIds).catch(() => undefined);
  }

  private async read(from: number, to: number, sessionIds: readonly string[] | undefined): ReportedStatuses {
    const report = await readStatusReport(this.o.http, this.o.fileHttp, {
      from,
      to,
      channels: [...STATUS_CHANNELS],
      sessionIds,
      waitMs: this.o.waitMs,
      ...(this.o.pollMs === undefined ? {} : { pollMs: this.o.pollMs }),
      signal: this.o.signal,
    });
    this.requests += report.requests;
    if (report.ok) {
      this.completed++;
      return report.statuses;
    }
    this.failed++;
    if (report.refused) this.refused = true;
    this.o.log.warn(
      {
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
        reason: report.reason,
        refused: report.refused,
      },
      report.refused
        ? 'the platform refused the messages report: statuses are read per client for the rest of the run'
        : 'the statuses report of a window failed: its statuses are read per client',
    );
    return undefined;
  }

  async close(): Promise<void> {
    await Promise.all([this.o.http.close(), this.o.fileHttp.close()]);
  }
}

/** Distinct (bot, client) of sessions on the status channels: what reading per client would ask. */
export function countStatusClients(
  sessions: readonly { channel_type: string; bot_id: string; client_id: string }[],
): number {
  const clients = new Set<string>();
  for (const s of sessions)
    if (STATUS_CHANNELS.has(s.channel_type)) clients.add(`${s.bot_id}\u0000${s.client_id}`);
  return clients.size;
}

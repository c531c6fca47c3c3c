// When a window's delivery statuses come from one platform report task (read-status-report.ts) rather than
// from one messages/by-client read per client (read-statuses.ts): when the window has at least
// REPORT_MIN_CLIENTS clients on the status channels (a report costs about that many requests), and until the
// platform refuses the operation itself (401/403/404/400: the rest of the run reads per client). A report is
// started as soon as the window's sessions are read, so it runs while its messages are paged; and once a
// window was worth one, the report of the next window of the queue is started ahead (beginAhead), so that
// a window seldom waits for its report (a report covering a window serves it and the halves it may be split
// into: its statuses are looked up by message id). Invariant: a report that fails is logged and its window
// falls back to the per-client reads; nothing is lost (a message newer than its report is read per client).
// A report is asked as CSV until a create asking CSV is answered 400 (a server that writes XLSX only): then as
// XLSX for the rest of the run. Its file is read by its content, its columns by their values (read-status-table.ts).
import type { Logger } from '../../log.js';
import type { ReporterHttp } from '../../platform/reporter/reporter-http.js';
import { STATUS_CHANNELS } from './map-records.js';
import { type ReportFileType, readStatusReport } from './read-status-report.js';
import type { ReportStatuses } from './report-statuses.js';

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

/**
 * A window's statuses from its report (looked up by the window's message ids: report-statuses.ts), or undefined
 * when the window must read them per client.
 */
export type ReportedStatuses = Promise<ReportStatuses | undefined>;

/**
 * Reports started ahead of their windows at most (each holds its window's statuses once done). At 1M messages
 * the full sync's peak RSS was 376 MB with none, 399 MB with one and 411 MB with two; against a platform 60 ms
 * away one and two were within the noise (docs/sync.md, "What overlaps").
 */
export const REPORTS_AHEAD = 1;

/** A report started ahead, for the window(s) within [from, to). */
interface AheadReport {
  from: number;
  to: number;
  statuses: ReportedStatuses;
}

export class StatusReports {
  /** Reports that completed, and those whose window fell back. */
  completed = 0;
  failed = 0;
  /** Lookups whose message ids no column of their report held (those windows read per client). */
  unmatched = 0;
  /** The file type asked: CSV until a create asking it was answered 400. */
  fileType: ReportFileType = 'CSV';
  private refused = false;
  /** The last window was worth a report: the next ones are started ahead. */
  private worthAhead = false;
  private readonly ahead: AheadReport[] = [];
  /** Every report not finished yet, and deletions under way: close() waits for them. */
  private readonly pending = new Set<Promise<unknown>>();
  /** Aborted by close(): a report no window will take stops waiting (its task is deleted). */
  private readonly closing = new AbortController();
  private readonly signal: AbortSignal;

  constructor(private readonly o: StatusReportsOptions) {
    this.signal = o.signal ? AbortSignal.any([o.signal, this.closing.signal]) : this.closing.signal;
  }

  /** Requests the reports made, each try counted (a 429 asked again is two, as the server counts them). */
  get requests(): number {
    return this.o.http.requests + this.o.fileHttp.requests;
  }

  /** The 429s the reports' requests were answered. */
  get throttled(): number {
    return this.o.http.throttled + this.o.fileHttp.throttled;
  }

  /**
   * The statuses of [from, to) (of `sessionIds` only, when given: the look-back's unsettled sessions): from a
   * report started ahead that covers the window, else from one started now when `statusClients` is worth one;
   * never rejects.
   */
  begin(
    from: number,
    to: number,
    statusClients: number,
    sessionIds?: readonly string[],
  ): ReportedStatuses | undefined {
    const wholeWindow = sessionIds === undefined;
    if (wholeWindow) {
      const started = this.takeAhead(from, to);
      if (started !== undefined) return started;
    }
    const worth = !this.refused && statusClients >= REPORT_MIN_CLIENTS;
    if (wholeWindow) this.worthAhead = worth;
    if (!worth) return undefined;
    return this.start(from, to, sessionIds);
  }

  /**
   * Starts the reports of the windows that come next (up to REPORTS_AHEAD not yet taken), when the last
   * window was worth one; windows covered by a report already started are skipped.
   */
  beginAhead(windows: readonly { from: number; to: number }[]): void {
    for (const w of windows) {
      if (!this.worthAhead || this.refused || this.ahead.length >= REPORTS_AHEAD) return;
      if (this.ahead.some((a) => a.from <= w.from && w.to <= a.to)) continue;
      this.ahead.push({ from: w.from, to: w.to, statuses: this.start(w.from, w.to) });
    }
  }

  /** A report started ahead covering [from, to), kept until the window that ends where it ends takes it. */
  private takeAhead(from: number, to: number): ReportedStatuses | undefined {
    // reports of windows before this one will not be taken any more (their window was read otherwise)
    while (this.ahead.length > 0 && this.ahead[0]!.to <= from) this.ahead.shift();
    const index = this.ahead.findIndex((a) => a.from <= from && to <= a.to);
    if (index < 0) return undefined;
    const report = this.ahead[index]!;
    if (report.to === to) this.ahead.splice(index, 1);
    return report.statuses;
  }

  private start(from: number, to: number, sessionIds?: readonly string[]): ReportedStatuses {
    const statuses = this.read(from, to, sessionIds).catch(() => undefined);
    this.track(statuses);
    return statuses;
  }

  private track(work: Promise<unknown>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  private async read(from: number, to: number, sessionIds: readonly string[] | undefined): ReportedStatuses {
    const report = await readStatusReport(this.o.http, this.o.fileHttp, {
      from,
      to,
      channels: [...STATUS_CHANNELS],
      sessionIds,
      waitMs: this.o.waitMs,
      ...(this.o.pollMs === undefined ? {} : { pollMs: this.o.pollMs }),
      signal: this.signal,
      fileType: this.fileType,
      onUnmatched: (reason) => this.noteUnmatched(from, to, reason),
    });
    if (report.csvRefused) this.noteCsvRefused();
    if (report.ok) {
      this.completed++;
      this.track(report.deleted);
      this.noteFileForm(report.file);
      return report.statuses;
    }
    this.failed++;
    if (report.refused) {
      this.refused = true;
      this.ahead.length = 0;
    }
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

  /** A file not in the form asked (XLSX for CSV, another delimiter or encoding) is said once per form. */
  private readonly formsSeen = new Set<string>();
  private noteFileForm(file: { fileType: string; delimiter?: string; encoding?: string }): void {
    const form = JSON.stringify(file);
    const asked = file.fileType === this.fileType && (file.fileType === 'XLSX' || file.delimiter === ',');
    if (this.formsSeen.has(form) || (asked && (file.encoding ?? 'utf-8') === 'utf-8')) return;
    this.formsSeen.add(form);
    this.o.log.info(file, 'a statuses report file is not in the form asked: read by its content');
  }

  /** The first create asking CSV answered 400: the rest of the run asks XLSX (said once). */
  private noteCsvRefused(): void {
    if (this.fileType === 'XLSX') return;
    this.fileType = 'XLSX';
    this.o.log.info(
      'the platform refused a messages report as CSV (400): statuses reports are asked as XLSX',
    );
  }

  private noteUnmatched(from: number, to: number, reason: string): void {
    this.unmatched++;
    this.o.log.warn(
      { from: new Date(from).toISOString(), to: new Date(to).toISOString(), reason },
      "a statuses report's ids did not match its window's messages: their statuses are read per client",
    );
  }

  /**
   * Stops the reports no window took (started ahead of windows a failure or a stop left unread: their tasks
   * are deleted) and waits for them and for the deletions under way, so that every request is counted.
   */
  async settle(): Promise<void> {
    this.ahead.length = 0;
    this.closing.abort(new Error('the sync is over: no window takes this report'));
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  async close(): Promise<void> {
    await this.settle();
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

// Generation requests (QueryRecord) and their lifecycle in real time: READY_TO_PROCESS for the first fifth
// of the processing time, PROCESSING until it has passed, then FINISHED (or FAILED, decided at submit);
// CANCELED when cancelled before that. Long polls wait on a record until it leaves the working states or
// their time passes; close() releases every waiter. The answer is decided at submit, so it is deterministic.
import { iso } from './kb-model.js';

export const QUERY_STATUSES = ['READY_TO_PROCESS', 'PROCESSING', 'FINISHED', 'FAILED', 'CANCELED'] as const;
export type QueryStatus = (typeof QUERY_STATUSES)[number];

export interface SourceRef {
  id: number;
  title: string;
  sourceType: string;
  path: string;
  externalLink?: string;
}

export interface QueryOutcome {
  response?: string;
  relevantSources: SourceRef[];
  /** `code: description` of a failure (the record's comment). */
  failure?: string;
}

export interface KbQuery {
  id: number;
  projectId: number;
  chatId?: number;
  request: string;
  /** Emulator clock at submit. */
  createdAt: number;
  /** Real time at submit (Date.now()) and how long processing takes. */
  submittedReal: number;
  processingMs: number;
  outcome: QueryOutcome;
  /** Real ms after submit when it was cancelled. */
  canceledAfterMs?: number;
}

export const isWorking = (status: QueryStatus): boolean =>
  status === 'READY_TO_PROCESS' || status === 'PROCESSING';

export function queryStatus(q: KbQuery, realNow = Date.now()): QueryStatus {
  if (q.canceledAfterMs !== undefined) return 'CANCELED';
  const elapsed = realNow - q.submittedReal;
  if (elapsed >= q.processingMs) return q.outcome.failure === undefined ? 'FINISHED' : 'FAILED';
  return elapsed < q.processingMs / 5 ? 'READY_TO_PROCESS' : 'PROCESSING';
}

export function queryWire(q: KbQuery, realNow = Date.now()): Record<string, unknown> {
  const status = queryStatus(q, realNow);
  // updatedAt: createdAt plus the (real) time of the record's last transition
  const elapsed =
    q.canceledAfterMs ??
    (status === 'READY_TO_PROCESS' ? 0 : status === 'PROCESSING' ? q.processingMs / 5 : q.processingMs);
  const [code, ...rest] = (q.outcome.failure ?? '').split(': ');
  return {
    id: q.id,
    ...(q.chatId === undefined ? {} : { chatId: q.chatId }),
    request: q.request,
    ...(status === 'FINISHED' ? { response: q.outcome.response ?? '' } : {}),
    status,
    createdAt: iso(q.createdAt),
    updatedAt: iso(q.createdAt + Math.max(0, Math.round(elapsed))),
    ...(status === 'FAILED' ? { comment: `${code}: ${rest.join(': ')}` } : {}),
    ...(status === 'CANCELED' ? { comment: 'kb.query.canceled: cancelled by the client' } : {}),
    relevantSources: status === 'FINISHED' ? q.outcome.relevantSources.map((s) => ({ ...s })) : [],
  };
}

/** Long polls and timers of the records, all released by close(). */
export class QueryWaits {
  private readonly waiters = new Map<number, Set<() => void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly sleepers = new Set<() => void>();
  private closed = false;

  /** Resolves once the record leaves the working states, after `maxMs` at the latest. */
  wait(q: KbQuery, maxMs: number): Promise<void> {
    if (this.closed || !isWorking(queryStatus(q)) || maxMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const set = this.waiters.get(q.id) ?? new Set();
      this.waiters.set(q.id, set);
      const untilDone = Math.max(0, q.submittedReal + q.processingMs - Date.now());
      const done = () => {
        clearTimeout(timer);
        this.timers.delete(timer);
        set.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(maxMs, untilDone + 1));
      this.timers.add(timer);
      set.add(done);
    });
  }

  /** A real-time pause (the SSE stream's pace), cut short by close(). */
  sleep(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.timers.delete(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.timers.add(timer);
      this.sleepers.add(done);
    });
  }

  /** Wakes the long polls of a record whose status changed (cancel). */
  wake(queryId: number): void {
    for (const done of [...(this.waiters.get(queryId) ?? [])]) done();
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const set of this.waiters.values()) for (const done of [...set]) done();
    for (const done of [...this.sleepers]) done();
  }
}

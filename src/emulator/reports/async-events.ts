// The log of async events (AsyncResponseDto) per request and the long-poll waiters on it. Invariants:
// responseTime strictly increases over the whole log (startTime = the last responseTime seen never loses
// nor repeats an event, even on a fixed emulator clock); waiters are woken by append(), never by polling.
import type { ErrorDto } from './report-types.js';

export interface AsyncEvent {
  accountId: number;
  requestId: string;
  requestTime: number;
  responseTime: number;
  isOk: boolean;
  payload?: Record<string, unknown>;
  error?: ErrorDto;
}

export interface EventQuery {
  accountId: number;
  /** One request's events; every request of the account when absent. */
  requestId?: string;
  /** Only events with responseTime after this (epoch ms). */
  after?: number;
}

interface Waiter {
  query: EventQuery;
  woken: boolean;
  finish(): void;
}

/** The wire form of an event. */
export function eventDto(event: AsyncEvent): Record<string, unknown> {
  const dto: Record<string, unknown> = {
    isOk: event.isOk,
    requestId: event.requestId,
    requestTime: new Date(event.requestTime).toISOString(),
    responseTime: new Date(event.responseTime).toISOString(),
  };
  if (event.payload !== undefined) dto['payload'] = event.payload;
  if (event.error !== undefined) dto['error'] = event.error;
  return dto;
}

/** First index of a time-ordered list whose responseTime is after `t`. */
function firstAfter(events: readonly AsyncEvent[], t: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (events[mid]!.responseTime > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export class AsyncEventLog {
  private readonly requests = new Map<string, { accountId: number; events: AsyncEvent[] }>();
  private readonly all: AsyncEvent[] = [];
  private readonly waiters = new Set<Waiter>();
  private readonly clock: () => number;
  private last = Number.NEGATIVE_INFINITY;
  private closed = false;

  /** `clock` is the emulator clock (epoch ms); event times never go below it. */
  constructor(clock: () => number) {
    this.clock = clock;
  }

  /** Registers a request, so that it is known before its first event. */
  open(requestId: string, accountId: number): void {
    if (!this.requests.has(requestId)) this.requests.set(requestId, { accountId, events: [] });
  }

  knows(requestId: string, accountId: number): boolean {
    return this.requests.get(requestId)?.accountId === accountId;
  }

  /** Long polls waiting now. */
  get pending(): number {
    return this.waiters.size;
  }

  append(event: Omit<AsyncEvent, 'responseTime'>): AsyncEvent {
    const responseTime = Math.max(this.clock(), this.last + 1);
    this.last = responseTime;
    const stored: AsyncEvent = { ...event, responseTime };
    this.open(event.requestId, event.accountId);
    this.requests.get(event.requestId)!.events.push(stored);
    this.all.push(stored);
    for (const waiter of this.waiters) {
      if (waiter.woken || !this.matches(stored, waiter.query)) continue;
      // woken after the current burst of appends, so that events appended together are answered together
      waiter.woken = true;
      queueMicrotask(() => waiter.finish());
    }
    return stored;
  }

  private matches(event: AsyncEvent, query: EventQuery): boolean {
    if (event.accountId !== query.accountId) return false;
    if (query.requestId !== undefined && event.requestId !== query.requestId) return false;
    return query.after === undefined || event.responseTime > query.after;
  }

  select(query: EventQuery): AsyncEvent[] {
    const list =
      query.requestId === undefined ? this.all : (this.requests.get(query.requestId)?.events ?? []);
    const from = query.after === undefined ? 0 : firstAfter(list, query.after);
    return list.slice(from).filter((e) => e.accountId === query.accountId);
  }

  /**
   * The matching events: at once when there are some (or timeoutMs is 0), otherwise as soon as one is
   * appended, or none after timeoutMs, when `signal` aborts (the client went away) or on close().
   */
  wait(query: EventQuery, timeoutMs: number, signal?: AbortSignal): Promise<AsyncEvent[]> {
    const ready = this.select(query);
    if (ready.length > 0 || timeoutMs <= 0 || this.closed || signal?.aborted) return Promise.resolve(ready);
    return new Promise((resolve) => {
      const onAbort = () => waiter.finish();
      const timer = setTimeout(() => waiter.finish(), timeoutMs);
      const waiter: Waiter = {
        query,
        woken: false,
        finish: () => {
          if (!this.waiters.delete(waiter)) return;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(this.closed || signal?.aborted ? [] : this.select(query));
        },
      };
      this.waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Answers every pending long poll (with no events) and refuses to wait from now on. */
  close(): void {
    this.closed = true;
    for (const waiter of [...this.waiters]) waiter.finish();
  }
}

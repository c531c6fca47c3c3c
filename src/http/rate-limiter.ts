// A client-side rate limit shared by every concurrent request of a client. By default no fixed rate: a 429
// halves the allowed rate (from the rate actually sent over the last few seconds), which then grows back by
// a step each second that has successful answers and no 429, until the cap is dropped (AIMD). An optional
// hard cap (REPORTER_RATE_LIMIT_RPM) spaces requests evenly on top. A 429's Retry-After pauses all requests.
// Invariant: no request leaves acquire() before the shared "not before" time, even one already waiting; with
// no hard cap and no 429 seen, acquire() never waits.

/** The rate observed over this span decides the rate after a 429. */
const OBSERVED_WINDOW_MS = 3000;
/** A span shorter than this counts as this long (a few requests sent at once are no rate). */
const MIN_OBSERVED_SPAN_MS = 100;
/** With fewer requests sent over the window a 429 only pauses: too few to tell a rate to halve. */
const MIN_OBSERVED_REQUESTS = 8;
/** The allowed rate grows once per interval with successful answers... */
const INCREASE_INTERVAL_MS = 1000;
/** ...by this share of the rate set by the last 429 (back to the rate that drew it in 20 intervals). */
const INCREASE_SHARE = 0.05;
/** The cap is dropped when it reaches this multiple of the rate set by the last 429. */
const RELEASE_FACTOR = 4;
/** Never below one request in 10 s. */
const MIN_RATE_PER_SECOND = 0.1;

export interface RateLimiterOptions {
  /** A hard cap in requests per minute on top of the adaptive rate (none by default). */
  maxPerMinute?: number | undefined;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export class RateLimiter {
  private next = 0;
  /** Nobody sends before this time (epoch ms): set by pause(). */
  private notBefore = 0;
  private readonly hardGapMs: number;
  /** Requests per second allowed since a 429; undefined: no adaptive cap. */
  private rate: number | undefined;
  private step = 0;
  private releaseAt = Number.POSITIVE_INFINITY;
  /** Requests sent so far, and how many had been sent at the last decrease. */
  private sendCount = 0;
  private sendsAtDecrease = 0;
  private lastIncreaseAt = 0;
  /** Send times of the last OBSERVED_WINDOW_MS, oldest first, from `sentHead` on. */
  private sent: number[] = [];
  private sentHead = 0;
  private firstSentAt: number | undefined;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: RateLimiterOptions = {}) {
    this.hardGapMs = options.maxPerMinute ? 60_000 / options.maxPerMinute : 0;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Requests per second allowed after 429s; undefined while there is no adaptive cap. */
  get allowedPerSecond(): number | undefined {
    return this.rate;
  }

  /**
   * Waits for this request's slot, and past a pause that began while it waited; returns the request's
   * number (to give backOff() if it gets a 429).
   */
  async acquire(): Promise<number> {
    for (;;) {
      let now = this.now();
      if (this.notBefore > now) {
        await this.sleep(this.notBefore - now);
        continue;
      }
      const slot = Math.max(now, this.next);
      this.next = slot + this.gapMs();
      if (slot > now) await this.sleep(slot - now);
      now = this.now();
      if (this.notBefore <= now) {
        this.recordSend(now);
        return ++this.sendCount;
      }
    }
  }

  /** Nobody sends before `ms` from now (a server's Retry-After); a later pause only extends it. */
  pause(ms: number): void {
    this.notBefore = Math.max(this.notBefore, this.now() + ms);
    this.next = Math.max(this.next, this.notBefore);
    // the recovery counts from when requests may go again
    if (this.rate !== undefined) this.lastIncreaseAt = Math.max(this.lastIncreaseAt, this.notBefore);
  }

  /**
   * A 429 for request number `sent` (from acquire()): the allowed rate becomes half of the rate sent over the
   * last few seconds (or of the allowed rate, if lower). Requests sent before the last decrease do not lower
   * it again: they went out at the rate that drew it; nor does a 429 after too few requests to tell a rate.
   */
  backOff(sent: number): void {
    if (sent <= this.sendsAtDecrease) return;
    const now = this.now();
    const observed = this.observedPerSecond(now);
    if (observed === undefined) return;
    const base = this.rate === undefined ? observed : Math.min(this.rate, observed);
    this.rate = Math.max(MIN_RATE_PER_SECOND, base / 2);
    this.step = this.rate * INCREASE_SHARE;
    this.releaseAt = this.rate * RELEASE_FACTOR;
    this.sendsAtDecrease = this.sendCount;
    this.lastIncreaseAt = Math.max(now, this.notBefore);
  }

  /** A successful answer: once per interval without a 429 the allowed rate grows by a step. */
  recordSuccess(): void {
    if (this.rate === undefined) return;
    const now = this.now();
    if (now - this.lastIncreaseAt < INCREASE_INTERVAL_MS) return;
    this.rate += this.step;
    this.lastIncreaseAt = now;
    if (this.rate >= this.releaseAt) {
      this.rate = undefined;
      // the slot reserved at the old rate is given back
      this.next = Math.min(this.next, now + this.hardGapMs);
    }
  }

  private gapMs(): number {
    return Math.max(this.hardGapMs, this.rate === undefined ? 0 : 1000 / this.rate);
  }

  private recordSend(now: number): void {
    this.firstSentAt ??= now;
    this.sent.push(now);
    this.forgetBefore(now - OBSERVED_WINDOW_MS);
  }

  private forgetBefore(limit: number): void {
    while (this.sentHead < this.sent.length && this.sent[this.sentHead]! <= limit) this.sentHead++;
    if (this.sentHead > 1024 && this.sentHead * 2 > this.sent.length) {
      this.sent = this.sent.slice(this.sentHead);
      this.sentHead = 0;
    }
  }

  /** Requests sent per second over the last OBSERVED_WINDOW_MS (or since the first, if later); undefined: too few. */
  private observedPerSecond(now: number): number | undefined {
    this.forgetBefore(now - OBSERVED_WINDOW_MS);
    const count = this.sent.length - this.sentHead;
    if (count < MIN_OBSERVED_REQUESTS) return undefined;
    const since = Math.max(now - OBSERVED_WINDOW_MS, this.firstSentAt ?? now);
    const span = Math.min(OBSERVED_WINDOW_MS, Math.max(MIN_OBSERVED_SPAN_MS, now - since));
    return (count * 1000) / span;
  }
}

/** At most `limit` tasks at once, in arrival order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

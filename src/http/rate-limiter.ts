// A client-side rate limit shared by every concurrent request of a client. By default no fixed rate. A 429
// alone (1 % of a server's answers, at random) changes nothing here: the request that drew it waits on its own.
// 429s that repeat (at least REPEATED_SHARE of the answers of the last second) say the client is above the
// server's limit: the allowed rate becomes a little under the rate the server answered over those seconds,
// then grows back by a small step each second that has successful answers and no repeated 429, until the cap is
// dropped (AIMD). An optional hard cap (REPORTER_RATE_LIMIT_RPM) spaces requests evenly on top. A pause (a
// Retry-After the transport shares) holds all requests.
// Invariant: no request leaves acquire() before the shared "not before" time, even one already waiting; with
// no hard cap and no repeated 429 seen, acquire() never waits.

import { RecentTimes } from './recent-times.js';

/** The rate observed over this span decides the rate after a 429. */
const OBSERVED_WINDOW_MS = 3000;
/** A span shorter than this counts as this long (a few requests sent at once are no rate). */
const MIN_OBSERVED_SPAN_MS = 100;
/** With fewer answers over the window a 429 only pauses: too few to tell a rate. */
const MIN_OBSERVED_REQUESTS = 8;
/** 429s are repeated (the client is above the server's limit) from this share of the answers of the last... */
const REPEATED_SHARE = 0.05;
/** ...REPEATED_WINDOW_MS (1 % of random 429s hardly ever reach 5 % of a second's answers)... */
const REPEATED_WINDOW_MS = 1000;
/** ...and at least this many of them. */
const REPEATED_COUNT = 3;
/** After repeated 429s the allowed rate is this share of the rate the server answered over the window. */
const DECREASE_KEEP = 0.9;
/** The allowed rate grows once per interval with successful answers... */
const INCREASE_INTERVAL_MS = 1000;
/** ...by this share of the rate set by the last decrease (past the rate that drew it in about 5 intervals). */
const INCREASE_SHARE = 0.02;
/** The cap is dropped when it reaches this multiple of the rate set by the last decrease. */
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
  /** Requests per second allowed since repeated 429s; undefined: no adaptive cap. */
  private rate: number | undefined;
  private step = 0;
  private releaseAt = Number.POSITIVE_INFINITY;
  /** Requests sent so far, and how many had been sent at the last decrease. */
  private sendCount = 0;
  private sendsAtDecrease = 0;
  private lastIncreaseAt = 0;
  /** Over the last OBSERVED_WINDOW_MS: requests sent, answers that were not 429, and 429s. */
  private readonly sent = new RecentTimes(OBSERVED_WINDOW_MS);
  private readonly answered = new RecentTimes(OBSERVED_WINDOW_MS);
  private readonly throttled = new RecentTimes(OBSERVED_WINDOW_MS);
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: RateLimiterOptions = {}) {
    this.hardGapMs = options.maxPerMinute ? 60_000 / options.maxPerMinute : 0;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Requests per second allowed after repeated 429s; undefined while there is no adaptive cap. */
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
        this.sent.record(now);
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
   * A 429 for request number `sent` (from acquire()). Returns whether 429s repeat (at least REPEATED_SHARE of
   * the last second's answers): then the allowed rate becomes DECREASE_KEEP of the rate the server answered
   * over those seconds (or of the allowed rate, if lower), once for the requests sent at the rate that drew
   * it. A 429 alone changes nothing: the request that drew it waits on its own.
   */
  backOff(sent: number): boolean {
    const now = this.now();
    this.throttled.record(now);
    const refused = this.throttled.countWithin(now, REPEATED_WINDOW_MS);
    const answers = refused + this.answered.countWithin(now, REPEATED_WINDOW_MS);
    if (refused < REPEATED_COUNT || refused < answers * REPEATED_SHARE) return false;
    if (sent <= this.sendsAtDecrease) return true;
    const base = this.answeredPerSecond(now);
    if (base === undefined) return true;
    this.rate = Math.max(MIN_RATE_PER_SECOND, DECREASE_KEEP * Math.min(this.rate ?? base, base));
    this.step = this.rate * INCREASE_SHARE;
    this.releaseAt = this.rate * RELEASE_FACTOR;
    this.sendsAtDecrease = this.sendCount;
    this.lastIncreaseAt = Math.max(now, this.notBefore);
    return true;
  }

  /** A successful answer: once per interval without repeated 429s the allowed rate grows by a step. */
  recordSuccess(): void {
    const now = this.now();
    this.answered.record(now);
    if (this.rate === undefined) return;
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

  /**
   * The rate the server answered (not 429) over the last OBSERVED_WINDOW_MS; with too few such answers (it
   * refuses nearly everything), half the rate sent; undefined when too few were sent to tell either.
   */
  private answeredPerSecond(now: number): number | undefined {
    const span = (times: RecentTimes) =>
      Math.min(OBSERVED_WINDOW_MS, Math.max(MIN_OBSERVED_SPAN_MS, now - times.since(now)));
    const answered = this.answered.count(now);
    if (answered >= MIN_OBSERVED_REQUESTS) return (answered * 1000) / span(this.answered);
    const sent = this.sent.count(now);
    if (sent >= MIN_OBSERVED_REQUESTS) return (sent * 1000) / span(this.sent) / 2;
    return undefined;
  }
}

// How many requests a client keeps in flight, adapted to the server (AIMD on rounds of answers): while the
// answers' round trip stays near the least seen and no 429 comes back, each round that used every slot adds
// one; a 429 (or a Retry-After) takes a quarter off at once, a round whose median round trip climbed well
// above the least seen takes a tenth off, but never below where it started (a round trip is a weak signal:
// on a busy machine, or with answers of different sizes, it climbs with no queue at the server; the start,
// REPORTER_CONCURRENCY, is what the client was told the server takes). A round is as many answers as the
// limit: about one round trip. Invariant: the limit stays within [floor, max] (within [start, max] for a
// climbing round trip); with floor = max it is a plain semaphore (no adapting).

/** A round whose median round trip is above this multiple of the least seen: the server is queueing. */
const LATENCY_TOLERANCE = 2;
/** A 429 or Retry-After keeps this share of the limit (at least one less). */
const THROTTLE_KEEP = 0.75;
/** A round with a climbing round trip keeps this share (at least one less). */
const LATENCY_KEEP = 0.9;
/** The least round trip is forgotten after this many answers, then taken again (a server may get slower for good). */
const BASELINE_SAMPLES = 1000;

export interface AdaptiveConcurrencyOptions {
  /** Requests in flight at the start (REPORTER_CONCURRENCY). */
  initial: number;
  /** The most in flight (REPORTER_MAX_CONCURRENCY); default `initial` (no growth). */
  max?: number;
  /** The fewest in flight (default 1 when the limit adapts). */
  floor?: number;
  /** Told when the limit changes (the transport logs it at debug level). */
  onChange?: (change: { limit: number; why: 'grew' | 'throttled' | 'latency' }) => void;
}

export class AdaptiveConcurrency {
  private currentLimit: number;
  /** The highest limit reached so far. */
  private highestLimit: number;
  private readonly floor: number;
  /** The fewest a climbing round trip leaves: the start (a 429 may go down to the floor). */
  private readonly latencyFloor: number;
  private readonly max: number;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** Requests started so far, and how many had started at the last decrease (answers to older ones don't lower it again). */
  private started = 0;
  private startedAtDecrease = 0;
  /** The round trips of the current round, and the most in flight during it. */
  private round: number[] = [];
  private roundPeak = 0;
  private baselineMs = Number.POSITIVE_INFINITY;
  private nextBaselineMs = Number.POSITIVE_INFINITY;
  private baselineSamples = 0;
  private readonly onChange: AdaptiveConcurrencyOptions['onChange'];

  constructor(options: AdaptiveConcurrencyOptions) {
    this.max = Math.max(1, options.max ?? options.initial);
    this.floor = Math.min(
      this.max,
      Math.max(1, options.floor ?? (this.max > options.initial ? 1 : this.max)),
    );
    this.currentLimit = Math.min(this.max, Math.max(this.floor, options.initial));
    this.latencyFloor = this.currentLimit;
    this.highestLimit = this.currentLimit;
    this.onChange = options.onChange;
  }

  /** Requests allowed in flight now. */
  get limit(): number {
    return this.currentLimit;
  }

  /** The highest limit reached so far (the concurrency the client grew to). */
  get highest(): number {
    return this.highestLimit;
  }

  /** The most this client may ever keep in flight (its connections). */
  get ceiling(): number {
    return this.max;
  }

  /**
   * Runs `task` once a slot is free (in arrival order); `task` gets the request's number, to give
   * recordThrottle() if its answer is a 429.
   */
  async run<T>(task: (started: number) => Promise<T>): Promise<T> {
    // a woken waiter is handed its slot (counted in `active` by wakeWaiting), so no later arrival overtakes it
    if (this.active < this.currentLimit && this.waiting.length === 0) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.roundPeak = Math.max(this.roundPeak, this.active);
    try {
      return await task(++this.started);
    } finally {
      this.active--;
      this.wakeWaiting();
    }
  }

  /** A successful answer's round trip: at the end of a round the limit grows, or shrinks if it climbed. */
  recordLatency(ms: number): void {
    this.trackBaseline(ms);
    this.round.push(ms);
    if (this.round.length < this.currentLimit) return;
    const median = medianOf(this.round);
    const full = this.roundPeak >= this.currentLimit;
    this.startRound();
    if (median > this.baselineMs * LATENCY_TOLERANCE) {
      if (this.currentLimit > this.latencyFloor) this.decrease(LATENCY_KEEP, 'latency', this.latencyFloor);
    } else if (full && this.currentLimit < this.max) {
      this.currentLimit++;
      if (this.currentLimit > this.highestLimit) {
        this.highestLimit = this.currentLimit;
        this.onChange?.({ limit: this.currentLimit, why: 'grew' });
      }
      this.wakeWaiting();
    }
  }

  /**
   * A 429 or a Retry-After for request number `started` (from run()): a quarter off the limit, once for the
   * requests sent at the limit that drew it (their answers arrive together).
   */
  recordThrottle(started: number): void {
    if (started <= this.startedAtDecrease) return;
    this.decrease(THROTTLE_KEEP, 'throttled', this.floor);
  }

  private decrease(keep: number, why: 'throttled' | 'latency', floor: number): void {
    const lowered = Math.max(floor, Math.min(this.currentLimit - 1, Math.floor(this.currentLimit * keep)));
    this.startedAtDecrease = this.started;
    this.startRound();
    if (lowered === this.currentLimit) return;
    this.currentLimit = lowered;
    this.onChange?.({ limit: lowered, why });
  }

  private startRound(): void {
    this.round = [];
    this.roundPeak = this.active;
  }

  /** The least round trip over the last BASELINE_SAMPLES answers (at least), the "no queue" reference. */
  private trackBaseline(ms: number): void {
    this.baselineMs = Math.min(this.baselineMs, ms);
    this.nextBaselineMs = Math.min(this.nextBaselineMs, ms);
    if (++this.baselineSamples < BASELINE_SAMPLES) return;
    this.baselineMs = this.nextBaselineMs;
    this.nextBaselineMs = Number.POSITIVE_INFINITY;
    this.baselineSamples = 0;
  }

  private wakeWaiting(): void {
    while (this.active < this.currentLimit && this.waiting.length > 0) {
      this.active++;
      this.waiting.shift()!();
    }
  }
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

// A client-side rate limit shared by every concurrent request of a client: requests are spaced evenly at
// `perMinute`, and a 429's Retry-After pauses all of them, not just the request that got it.
export class RateLimiter {
  private next = 0;
  private readonly gapMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    perMinute: number,
    options: { now?: () => number; sleep?: (ms: number) => Promise<void> } = {},
  ) {
    this.gapMs = 60_000 / perMinute;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Waits for this request's slot. */
  async acquire(): Promise<void> {
    const now = this.now();
    const slot = Math.max(now, this.next);
    this.next = slot + this.gapMs;
    if (slot > now) await this.sleep(slot - now);
  }

  /** Nobody sends before `ms` from now (a server's Retry-After). */
  pause(ms: number): void {
    this.next = Math.max(this.next, this.now() + ms);
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

// A client-side rate limit shared by every concurrent request of a client: requests are spaced evenly at
// `perMinute`, and a 429's Retry-After pauses all of them, not just the request that got it.
// Invariant: no request leaves acquire() before the shared "not before" time, even one already waiting.
export class RateLimiter {
  private next = 0;
  /** Nobody sends before this time (epoch ms): set by pause(). */
  private notBefore = 0;
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

  /** Waits for this request's slot, and past a pause that began while it waited. */
  async acquire(): Promise<void> {
    for (;;) {
      let now = this.now();
      if (this.notBefore > now) {
        await this.sleep(this.notBefore - now);
        continue;
      }
      const slot = Math.max(now, this.next);
      this.next = slot + this.gapMs;
      if (slot > now) await this.sleep(slot - now);
      now = this.now();
      if (this.notBefore <= now) return;
    }
  }

  /** Nobody sends before `ms` from now (a server's Retry-After); a later pause only extends it. */
  pause(ms: number): void {
    this.notBefore = Math.max(this.notBefore, this.now() + ms);
    this.next = Math.max(this.next, this.notBefore);
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

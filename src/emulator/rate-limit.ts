// The emulator's server-side rate limit, as a gateway in front of a real API has one: a token bucket of
// `requests` per `perMs` (bursts up to `burst`, default `requests`) shared by every API request; a request
// beyond it is answered 429 with a Retry-After in whole seconds (when the next token is there).
// Invariant: over any span T the server lets through at most burst + requests × T / perMs requests.

export interface RateLimitOptions {
  requests: number;
  perMs: number;
  /** The bucket's size: requests let through at once after a quiet spell (default `requests`). */
  burst?: number;
}

export class ServerRateLimit {
  private tokens: number;
  private last: number;
  private readonly perMsRate: number;
  private readonly burst: number;
  /** When each request answered 429 by the limit arrived (Date.now()). */
  readonly rejectedAt: number[] = [];

  constructor(
    readonly options: RateLimitOptions,
    private readonly now: () => number = Date.now,
  ) {
    if (!(options.requests > 0) || !(options.perMs > 0))
      throw new Error(`rateLimit: requests and perMs must be positive, got ${JSON.stringify(options)}`);
    this.perMsRate = options.requests / options.perMs;
    this.burst = Math.max(1, options.burst ?? options.requests);
    this.tokens = this.burst;
    this.last = this.now();
  }

  /** Takes a token for a request: undefined when it may pass, else the Retry-After in seconds. */
  take(): number | undefined {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + (now - this.last) * this.perMsRate);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return undefined;
    }
    this.rejectedAt.push(now);
    return Math.max(1, Math.ceil((1 - this.tokens) / this.perMsRate / 1000));
  }
}

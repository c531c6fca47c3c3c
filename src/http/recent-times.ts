// The times of recent events (sends, answers, 429s) within a sliding span, counted cheaply: a limiter asks
// how many happened over the last few seconds, and since when it has been counting.
// Invariant: count(now) counts exactly the events at times in (now - spanMs, now] (times recorded in order).

export class RecentTimes {
  private times: number[] = [];
  private head = 0;
  /** The first event ever recorded (a rate over a span shorter than spanMs is measured from it). */
  private first: number | undefined;

  constructor(private readonly spanMs: number) {}

  record(at: number): void {
    this.first ??= at;
    this.times.push(at);
  }

  /** Events in (now - spanMs, now]. */
  count(now: number): number {
    this.forgetBefore(now - this.spanMs);
    return this.times.length - this.head;
  }

  /** Events in (now - withinMs, now], for a span no longer than spanMs. */
  countWithin(now: number, withinMs: number): number {
    this.forgetBefore(now - this.spanMs);
    const limit = now - withinMs;
    let low = this.head;
    let high = this.times.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.times[middle]! <= limit) low = middle + 1;
      else high = middle;
    }
    return this.times.length - low;
  }

  /** When counting began, or the start of the span if later. */
  since(now: number): number {
    return Math.max(now - this.spanMs, this.first ?? now);
  }

  private forgetBefore(limit: number): void {
    while (this.head < this.times.length && this.times[this.head]! <= limit) this.head++;
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }
}

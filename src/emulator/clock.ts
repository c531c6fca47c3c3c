// The emulator's clock: fixed (tests and the default) or live (advancing with real time, at a speed).
// It never goes backwards, so data that became visible stays visible.
export class EmulatorClock {
  private base: number;
  private realBase = Date.now();
  private speed: number;

  constructor(start: number, options: { live?: boolean; speed?: number } = {}) {
    this.base = start;
    this.speed = options.live ? (options.speed ?? 1) : 0;
  }

  get live(): boolean {
    return this.speed > 0;
  }

  now(): number {
    return Math.floor(this.base + (Date.now() - this.realBase) * this.speed);
  }

  /** Moves the clock forward by `ms` (a no-op for negative values). */
  advance(ms: number): number {
    return this.set(this.now() + Math.max(0, ms));
  }

  set(time: number): number {
    const current = this.now();
    this.base = Math.max(current, Math.floor(time));
    this.realBase = Date.now();
    return this.base;
  }

  /** Live mode at `speed` simulated ms per real ms; 0 stops the clock. */
  setSpeed(speed: number): void {
    this.base = this.now();
    this.realBase = Date.now();
    this.speed = Math.max(0, speed);
  }
}

// When a writer lets go of the file it keeps between operations: after a second without an operation or a
// served read (idle release), or when another process waits for the file (the `.waiting` marker is fresh)
// and the writer gave no turn in the last 3 s; served reads hold such a turn back at most 2 s. A turn keeps
// the writer out until the waiter got in (at most 2 s, turn-marker.ts). The clock, the timer and the marker
// are given, so the policy is tested alone.

/** A writer between operations lets go of the file after this long without one (schedule between runs). */
export const WRITER_IDLE_RELEASE_MS = 1_000;
/**
 * A writer lets a waiting process in at most this often: each turn costs it a checkpoint and a cold reopen
 * (~0.5 CPU-s at 100k messages), so readers in a tight loop would otherwise take turns back to back.
 */
export const TURN_EVERY_MS = 3_000;
/**
 * A turn another process asked for waits at most this long for the reads this writer serves: then the turn is
 * given anyway and those reads are cut at once (interrupted; their readers read again elsewhere).
 */
export const SERVED_READS_TURN_LIMIT_MS = 2_000;
/** How often a writer between operations looks for a waiting process. */
export const IDLE_WATCH_EVERY_MS = 50;

/** The time and a repeating timer (Date.now and an unref'd setInterval by default). */
export interface PolicyClock {
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

export const SYSTEM_CLOCK: PolicyClock = {
  now: () => Date.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

export interface WriterPolicyOptions {
  /** Another process waits for the file (turn-marker.ts: isSomeoneWaiting). */
  isSomeoneWaiting: () => boolean;
  /** A served read runs, or a reader holds a snapshot there (read-service.ts: isBusy). */
  isServing: () => boolean;
  /** Waits, the file let go, until the waiter got in (turn-marker.ts: giveTurn, at most 2 s). */
  stayOut: () => Promise<void>;
  clock?: PolicyClock | undefined;
}

export interface WriterPolicy {
  /**
   * Someone waits, no turn was given for 3 s, and no served read runs, or served reads have held the turn
   * back for SERVED_READS_TURN_LIMIT_MS.
   */
  isTurnDue(): boolean;
  /** Served reads have held a waiting process back for the limit: letting go cuts them without waiting. */
  areReadsOverdue(): boolean;
  /** Before an operation: when a turn is due, lets go (`letGo`), stays out for the waiter, and notes the turn. */
  giveTurnIfDue(letGo: () => Promise<void>): Promise<void>;
  /**
   * The writer went idle holding the file: `release` is called once a turn is due or a second passed without
   * an operation or a served read; the watch ends when `isIdle` says an operation (or hold) came.
   */
  watchIdle(isIdle: () => boolean, release: () => void): void;
  /** Ends the watch (the warehouse closes). */
  stop(): void;
}

export function createWriterPolicy(options: WriterPolicyOptions): WriterPolicy {
  const clock = options.clock ?? SYSTEM_CLOCK;
  let stopWatch: (() => void) | undefined;
  let idleSince = 0;
  /** When the writer last let a waiting process in: it does so at most every TURN_EVERY_MS. */
  let lastTurnAt = Number.NEGATIVE_INFINITY;
  const stop = (): void => {
    stopWatch?.();
    stopWatch = undefined;
  };
  /** Since when served reads hold back a turn that is otherwise due. */
  let heldBackSince: number | undefined;
  const isTurnDue = (): boolean => {
    if (clock.now() - lastTurnAt < TURN_EVERY_MS || !options.isSomeoneWaiting()) {
      heldBackSince = undefined;
      return false;
    }
    if (!options.isServing()) return true;
    heldBackSince ??= clock.now();
    return clock.now() - heldBackSince >= SERVED_READS_TURN_LIMIT_MS;
  };
  return {
    isTurnDue,
    areReadsOverdue: () =>
      heldBackSince !== undefined && clock.now() - heldBackSince >= SERVED_READS_TURN_LIMIT_MS,
    async giveTurnIfDue(letGo) {
      if (!isTurnDue()) return;
      // another process waits: let it in between two operations instead of chaining them on one open file
      await letGo();
      heldBackSince = undefined;
      await options.stayOut();
      lastTurnAt = clock.now();
    },
    watchIdle(isIdle, release) {
      // a writer keeps the file between operations (each open and close costs a cold start and a checkpoint)
      // until another process asks for it or nothing has run for WRITER_IDLE_RELEASE_MS
      idleSince = clock.now();
      if (stopWatch) return;
      stopWatch = clock.every(IDLE_WATCH_EVERY_MS, () => {
        if (!isIdle()) return stop();
        if (options.isServing()) idleSince = clock.now();
        if (isTurnDue() || clock.now() - idleSince >= WRITER_IDLE_RELEASE_MS) {
          stop();
          release();
        }
      });
    },
    stop,
  };
}

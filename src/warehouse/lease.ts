// Leases: who is working on a row (an etl_runs run, a platform_report_tasks task) is decided by a heartbeat
// time the owner refreshes every `beatMs`, not by whether its PID answers (a zombie or a reused PID does). A
// lease is stale once `staleMs` (a few missed beats) passed since its last beat, or at once when its owner is
// known dead on this host (src/process/process-identity.ts). Invariant: a beat is one short UPDATE; a failed beat
// (warehouse busy) is tried again at the next beat, and nothing is held between.
import type { Logger } from '../log.js';

export interface LeaseTiming {
  /** How often the owner refreshes its heartbeat (ms). */
  beatMs: number;
  /** After how long without a beat the lease is free for another process (ms). */
  staleMs: number;
}

/** Beat every 10 s; stale after 3 missed beats. Tests pass shorter timings as options. */
export const LEASE: LeaseTiming = { beatMs: 10_000, staleMs: 30_000 };

/** The lease timing with a caller's overrides. */
export function leaseTiming(overrides?: Partial<LeaseTiming>): LeaseTiming {
  return { ...LEASE, ...overrides };
}

/** Whether a lease last refreshed at `heartbeatAt` (epoch ms) is still held at `now`. */
export function isLeaseFresh(
  heartbeatAt: number | null | undefined,
  now: number,
  timing: LeaseTiming,
): boolean {
  return heartbeatAt !== null && heartbeatAt !== undefined && now - heartbeatAt < timing.staleMs;
}

export interface Heartbeat {
  /** Stops beating and waits for a beat in flight. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Calls `beat` every `beatMs` until stopped: one beat at a time (a beat still running when the next is due is
 * not doubled), failures logged and left to the next beat. The timer does not keep the process alive.
 */
export function startHeartbeat(beat: () => Promise<unknown>, beatMs: number, log?: Logger): Heartbeat {
  let inFlight: Promise<void> | undefined;
  let stopped = false;
  const timer = setInterval(() => {
    if (inFlight || stopped) return;
    inFlight = beat()
      .then(
        () => undefined,
        (error: unknown) =>
          log?.debug(
            { err: error instanceof Error ? error.message : String(error) },
            'heartbeat not written; trying again at the next beat',
          ),
      )
      .finally(() => {
        inFlight = undefined;
      });
  }, beatMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
    },
  };
}

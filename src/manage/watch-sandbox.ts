// Watches the sandbox while it holds the warehouse file: once its time limit passed, or a writer has waited
// for the file for a second (the turn marker, turn-marker.ts, looked at every 250 ms: a short query ends
// first; a waiting reader can share the file and is not given way to), the DuckDB call running is interrupted
// (DuckDBConnection.interrupt()) and every call from then on fails with the reason's EtlError, so the caller
// releases the file at once; so does a wait for the output's reader, which the time limit does not count.
// Invariant: a call that ended by itself keeps its result; only calls and waits are stopped.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { EtlError } from '../errors.js';
import { isOutOfMemory } from '../warehouse/commit-window.js';
import { waitingWriter } from '../warehouse/turn-marker.js';
import {
  queryOutOfMemoryError,
  queryTimeoutError,
  queryYieldedError,
  type SandboxTimeLimit,
} from './sandbox-errors.js';

/** How often a running query looks for a waiting writer (a writer waits REPORTER_LOCK_WAIT_SECONDS at most). */
const MARKER_EVERY_MS = 250;
/** How long a writer waits for a running query before it gives way: a short query ends first. */
const WRITER_GRACE_MS = 1_000;

export interface SandboxWatch {
  /** Runs one DuckDB call: it fails with the stop's EtlError once stopped, and out of memory in our words. */
  run<T>(call: () => Promise<T>): Promise<T>;
  /**
   * Waits for something outside DuckDB (the output's reader making room): the time limit does not count
   * meanwhile, and a stop (a writer waiting) ends the wait with its EtlError.
   */
  waitOutside<T>(waiting: Promise<T>): Promise<T>;
  /** Ends the watch (at release). */
  end(): void;
}

export function watchSandbox(options: {
  connection: DuckDBConnection;
  marker: string;
  timeLimit: SandboxTimeLimit;
  memoryLimit?: string | undefined;
}): SandboxWatch {
  const { connection, marker, timeLimit } = options;
  let stopped: EtlError | undefined;
  let running = 0;
  let onStop: ((error: EtlError) => void) | undefined;
  const stop = (error: EtlError): void => {
    if (stopped) return;
    stopped = error;
    if (running > 0) connection.interrupt();
    onStop?.(error);
  };
  const limit = timeLimitTimer(timeLimit.ms, () => stop(queryTimeoutError(timeLimit)));
  /** Since when a writer waits (performance.now()), while it does. */
  let writerSince: number | undefined;
  const markerTimer = setInterval(() => {
    const writer = waitingWriter(marker);
    if (writer === undefined) {
      writerSince = undefined;
      return;
    }
    writerSince ??= performance.now();
    if (performance.now() - writerSince >= WRITER_GRACE_MS)
      stop(queryYieldedError(writer === 0 ? undefined : writer));
  }, MARKER_EVERY_MS);
  return {
    async run(call) {
      if (stopped) throw stopped;
      running++;
      try {
        return await call();
      } catch (error) {
        if (stopped) throw stopped;
        if (isOutOfMemory(error)) throw queryOutOfMemoryError(error, options.memoryLimit);
        throw error;
      } finally {
        running--;
      }
    },
    async waitOutside(waiting) {
      if (stopped) throw stopped;
      limit.pause();
      try {
        return await new Promise((resolve, reject) => {
          onStop = reject;
          waiting.then(resolve, reject);
        });
      } finally {
        onStop = undefined;
        limit.resume();
      }
    },
    end() {
      limit.pause();
      clearInterval(markerTimer);
    },
  };
}

/** A time limit that can be paused: `onLimit` is called once `ms` of unpaused time passed (0: never). */
function timeLimitTimer(ms: number, onLimit: () => void): { pause(): void; resume(): void } {
  let left = ms;
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  const resume = (): void => {
    if (ms <= 0 || timer) return;
    since = performance.now();
    timer = setTimeout(onLimit, Math.max(0, left));
  };
  resume();
  return {
    pause() {
      if (!timer) return;
      clearTimeout(timer);
      timer = undefined;
      left -= performance.now() - since;
    },
    resume,
  };
}

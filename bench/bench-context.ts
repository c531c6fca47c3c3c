// What the steps share: the options, a temporary directory, the emulator's fixed settings (the same seed
// and clock give the same data, so a fresh emulator answers the same requests the same way) and what one
// step leaves for the next (the synced warehouse, the recorded requests, the sync's summary).
import { DEFAULT_V1_TOKEN } from '../src/emulator/emulator.js';
import { type RunningEmulator, startEmulator } from '../src/emulator/server.js';
import type { BenchOptions } from './bench-options.js';

export interface SyncRunFigures {
  wallMs: number;
  durationMs: number;
  sessions: number;
  messages: number;
  requests: number;
  windows: number;
  maxRssMb: number;
  /** User + system CPU of the child. */
  cpuSeconds: number;
  /** Answers that were 429, and the most requests in flight the client grew to (the sync's summary). */
  throttled?: number;
  concurrencyReached?: number;
}

export interface BenchContext {
  options: BenchOptions;
  /** Temporary directory of this run (warehouses, recorded requests). */
  dir: string;
  /** The emulator's clock, fixed for the whole run: every emulator started holds the same data. */
  emulatorNow: number;
  token: string;
  /** Set by full-sync. */
  fullSync?: SyncRunFigures & { dataDir: string; requestsFile: string };
  /** Set by full-sync-capped (pages capped at options.maxPageSize). */
  cappedSync?: SyncRunFigures & { dataDir: string; requestsFile: string };
  /** Log a progress line on stderr. */
  say(line: string): void;
}

/**
 * A fresh emulator with the run's data; `record` keeps every API request it receives; `maxPageSize` caps
 * its pages (the emulator's default, 500, otherwise).
 */
async function startBenchEmulator(
  ctx: BenchContext,
  options: { record?: boolean; maxPageSize?: number | undefined } = {},
): Promise<RunningEmulator> {
  const running = await startEmulator({
    sessions: ctx.options.sessions,
    days: ctx.options.days,
    seed: ctx.options.seed,
    now: ctx.emulatorNow,
    ...(options.maxPageSize === undefined ? {} : { maxPageSize: options.maxPageSize }),
  });
  if (options.record) running.emulator.requestLog = [];
  return running;
}

/** Runs `use` against a fresh emulator (startBenchEmulator's options), closed whatever `use` does. */
export async function withBenchEmulator<T>(
  ctx: BenchContext,
  options: { record?: boolean; maxPageSize?: number | undefined },
  use: (running: RunningEmulator) => Promise<T>,
): Promise<T> {
  const running = await startBenchEmulator(ctx, options);
  try {
    return await use(running);
  } finally {
    await running.close();
  }
}

export const BENCH_TOKEN = DEFAULT_V1_TOKEN;

/** The environment of a sync child against the emulator at `url`: the default rate (none fixed), logs quiet. */
export function syncEnvironment(ctx: BenchContext, url: string, dataDir: string): Record<string, string> {
  return {
    REPORTER_BASE_URL: url,
    REPORTER_TOKEN: ctx.token,
    REPORTER_API: 'v1',
    REPORTER_DATA_DIR: dataDir,
    REPORTER_CONCURRENCY: String(ctx.options.concurrency),
    REPORTER_HISTORY_DAYS: String(ctx.options.days + 1),
    LOG_LEVEL: 'warn',
  };
}

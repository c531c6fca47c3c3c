// Runs `reporter-etl sync --json` as a measured child process and reads its run summary: the shared
// part of the full and incremental sync steps. A sync that does not end `success` stops the benchmark.
import { join } from 'node:path';
import type { BenchContext, SyncRunFigures } from '../bench-context.js';
import { CLI, runChild } from '../run-child.js';

interface SyncSummaryJson {
  status: string;
  sessions: number;
  messages: number;
  requests: number;
  windows: number;
  durationMs: number;
  throttled?: number;
  concurrencyReached?: number;
  error: string | null;
}

export async function runSyncChild(
  ctx: BenchContext,
  env: Record<string, string>,
  label: string,
): Promise<SyncRunFigures> {
  const child = await runChild(CLI, ['sync', '--json'], {
    env,
    resourcesFile: join(ctx.dir, `resources-${label}.json`),
  });
  let summary: SyncSummaryJson | undefined;
  try {
    summary = (JSON.parse(child.stdout) as { runs: SyncSummaryJson[] }).runs[0];
  } catch {
    // reported below with the child's stderr
  }
  if (child.exitCode !== 0 || !summary || summary.status !== 'success')
    throw new Error(
      `the ${label} sync failed (exit ${child.exitCode}): ${summary?.error ?? child.stderr.slice(-2000)}`,
    );
  return {
    wallMs: child.wallMs,
    durationMs: summary.durationMs,
    sessions: summary.sessions,
    messages: summary.messages,
    requests: summary.requests,
    windows: summary.windows,
    maxRssMb: child.maxRssMb,
    cpuSeconds: child.userCpuS + child.systemCpuS,
    ...(summary.throttled === undefined ? {} : { throttled: summary.throttled }),
    ...(summary.concurrencyReached === undefined ? {} : { concurrencyReached: summary.concurrencyReached }),
  };
}

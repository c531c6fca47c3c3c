// Replays recorded requests (children/replay-requests.js) against a fresh emulator holding the same data:
// the transfer floor of a sync. Shared by the full sync's floor and the incremental step's own floor.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRequest } from '../../src/emulator/emulator.js';
import { type BenchContext, withBenchEmulator } from '../bench-context.js';
import { childScript, runChild } from '../run-child.js';

export interface ReplayFigures {
  wallMs: number;
  replayMs: number;
  requests: number;
  bytes: number;
  maxRssMb: number;
  cpuSeconds: number;
  /** CSV records split (the parse floor's statuses report files; 0 without parsing). */
  csvRecords: number;
}

/** Writes recorded requests as NDJSON; returns the file. */
export function saveRequests(ctx: BenchContext, log: readonly RecordedRequest[], label: string): string {
  const file = join(ctx.dir, `requests-${label}.ndjson`);
  writeFileSync(file, log.map((r) => JSON.stringify(r)).join('\n'));
  return file;
}

export async function replayRecorded(
  ctx: BenchContext,
  requestsFile: string,
  label: string,
  emulator: { maxPageSize?: number | undefined } = {},
  /** Also parse each body (the parse floor, children/replay-requests.ts says how). */
  parse?: 'json' | 'duckdb',
): Promise<ReplayFigures> {
  // the same data and the same page cap as the emulator that recorded them: the same answers
  return withBenchEmulator(ctx, emulator, async (running) => {
    const child = await runChild(
      childScript('replay-requests.js'),
      [requestsFile, running.url, ctx.token, String(ctx.options.concurrency), ...(parse ? [parse] : [])],
      { resourcesFile: join(ctx.dir, `resources-replay-${label}.json`) },
    );
    if (child.exitCode !== 0) throw new Error(`the replay failed: ${child.stderr.slice(-2000)}`);
    const replay = JSON.parse(child.stdout) as {
      requests: number;
      bytes: number;
      wallMs: number;
      failures: number;
      csvRecords: number;
    };
    if (replay.failures > 0)
      throw new Error(`${replay.failures} replayed requests did not answer 2xx: the floor is not valid`);
    return {
      wallMs: child.wallMs,
      replayMs: replay.wallMs,
      requests: replay.requests,
      bytes: replay.bytes,
      maxRssMb: child.maxRssMb,
      cpuSeconds: child.userCpuS + child.systemCpuS,
      csvRecords: replay.csvRecords,
    };
  });
}

// Step: a full sync into an empty warehouse, the real CLI as a child process against a fresh emulator
// that records every request (the transfer floor replays them). Reports its time, requests per 1,000
// messages and peak RSS, and leaves the warehouse for the load floor and the incremental step.
import { join } from 'node:path';
import { type BenchContext, startBenchEmulator, syncEnvironment } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { saveRequests } from './replay-recorded.js';
import { runSyncChild } from './run-sync-child.js';

export const fullSyncStep: BenchStep = {
  id: 'full-sync',
  title: 'Full sync into an empty warehouse',
  needs: [],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const running = await startBenchEmulator(ctx, { record: true });
    const dataDir = join(ctx.dir, 'synced');
    try {
      const sync = await runSyncChild(ctx, syncEnvironment(ctx, running.url, dataDir), 'full');
      const log = running.emulator.requestLog ?? [];
      const requestsFile = saveRequests(ctx, log, 'full');
      if (log.length !== sync.requests)
        ctx.say(`note: the emulator saw ${log.length} requests, the sync counted ${sync.requests}`);
      ctx.fullSync = { ...sync, dataDir, requestsFile };
      return {
        seconds: { value: sync.wallMs / 1000, unit: 's' },
        sessions: { value: sync.sessions, unit: 'count' },
        messages: { value: sync.messages, unit: 'count' },
        requests: { value: sync.requests, unit: 'count' },
        requestsPer1000Messages: {
          value: (sync.requests / Math.max(1, sync.messages)) * 1000,
          unit: 'per 1000',
        },
        peakRssMb: { value: sync.maxRssMb, unit: 'MB' },
        cpuSeconds: { value: sync.cpuSeconds, unit: 's', note: 'user + system CPU of the sync process' },
      };
    } finally {
      await running.close();
    }
  },
};

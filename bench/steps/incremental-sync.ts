// Step: an incremental sync right after the full one, on the loaded warehouse, with nothing changed
// (the emulator's clock is fixed). Its cost must follow the look-back (REPORTER_LOOKBACK_HOURS) and the
// new data, not the warehouse size: the step reports what it re-read, and replays its requests with
// bare undici (its own transfer floor) to show how much of its time is the transfer of the look-back.
import { type BenchContext, startBenchEmulator, syncEnvironment } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { replayRecorded, saveRequests } from './replay-recorded.js';
import { runSyncChild } from './run-sync-child.js';

export const incrementalSyncStep: BenchStep = {
  id: 'incremental',
  title: 'Incremental sync, nothing changed',
  needs: ['full-sync'],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const full = ctx.fullSync!;
    const running = await startBenchEmulator(ctx, { record: true });
    let requestsFile: string;
    let sync: Awaited<ReturnType<typeof runSyncChild>>;
    try {
      sync = await runSyncChild(ctx, syncEnvironment(ctx, running.url, full.dataDir), 'incremental');
      requestsFile = saveRequests(ctx, running.emulator.requestLog ?? [], 'incremental');
    } finally {
      await running.close();
    }
    const floor = await replayRecorded(ctx, requestsFile, 'incremental');
    return {
      seconds: { value: sync.wallMs / 1000, unit: 's' },
      syncSeconds: {
        value: sync.durationMs / 1000,
        unit: 's',
        note: 'inside the sync (without node start-up)',
      },
      transferFloorSeconds: {
        value: floor.wallMs / 1000,
        unit: 's',
        note: 'its requests replayed with bare undici',
      },
      windows: { value: sync.windows, unit: 'count' },
      messagesReread: { value: sync.messages, unit: 'count' },
      requests: { value: sync.requests, unit: 'count' },
      peakRssMb: { value: sync.maxRssMb, unit: 'MB' },
    };
  },
};

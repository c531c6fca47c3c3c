// Step: an incremental sync right after the full one, on the loaded warehouse, with nothing changed
// (the emulator's clock is fixed). Its cost must follow the look-back (REPORTER_LOOKBACK_HOURS) and the
// new data, not the warehouse size: the step reports what it re-read, and replays its requests with
// bare undici (its own transfer floor) to show how much of its time is the transfer of the look-back; then
// the same run with REPORTER_LOOKBACK_READ=whole, what reading the look-back by its changes saves.
import { type BenchContext, syncEnvironment, withBenchEmulator } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { replayRecorded, saveRequests } from './replay-recorded.js';
import { runSyncChild } from './run-sync-child.js';

export const incrementalSyncStep: BenchStep = {
  id: 'incremental',
  title: 'Incremental sync, nothing changed',
  needs: ['full-sync'],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const full = ctx.fullSync!;
    const { sync, requestsFile, whole } = await withBenchEmulator(ctx, { record: true }, async (running) => {
      const env = syncEnvironment(ctx, running.url, full.dataDir);
      const sync = await runSyncChild(ctx, env, 'incremental');
      const requestsFile = saveRequests(ctx, running.emulator.requestLog ?? [], 'incremental');
      // the lever's account: the same run reading its look-back whole (nothing changed in between)
      const whole = await runSyncChild(ctx, { ...env, REPORTER_LOOKBACK_READ: 'whole' }, 'incremental-whole');
      return { sync, requestsFile, whole };
    });
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
      wholeSeconds: {
        value: whole.wallMs / 1000,
        unit: 's',
        note: 'the same run with REPORTER_LOOKBACK_READ=whole (every record of the look-back again)',
      },
      wholeMessagesReread: { value: whole.messages, unit: 'count' },
      wholeRequests: { value: whole.requests, unit: 'count' },
    };
  },
};

// Step: an incremental sync right after the full one, on the loaded warehouse, with nothing changed
// (the emulator's clock is fixed). Its cost must follow the look-back (REPORTER_LOOKBACK_HOURS) and the
// new data, not the warehouse size: the step reports what it re-read beside its time and peak RSS.
import { type BenchContext, startBenchEmulator, syncEnvironment } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { runSyncChild } from './run-sync-child.js';

export const incrementalSyncStep: BenchStep = {
  id: 'incremental',
  title: 'Incremental sync, nothing changed',
  needs: ['full-sync'],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const full = ctx.fullSync!;
    const running = await startBenchEmulator(ctx);
    try {
      const sync = await runSyncChild(ctx, syncEnvironment(ctx, running.url, full.dataDir), 'incremental');
      return {
        seconds: { value: sync.wallMs / 1000, unit: 's' },
        syncSeconds: {
          value: sync.durationMs / 1000,
          unit: 's',
          note: 'inside the sync (without node start-up)',
        },
        windows: { value: sync.windows, unit: 'count' },
        messagesReread: { value: sync.messages, unit: 'count' },
        requests: { value: sync.requests, unit: 'count' },
        peakRssMb: { value: sync.maxRssMb, unit: 'MB' },
      };
    } finally {
      await running.close();
    }
  },
};

// Step: the transfer floor. Exactly the requests the full sync made (recorded by its emulator) are
// replayed against a fresh emulator holding the same data, with a bare undici Pool at the same
// concurrency, bodies read and discarded: what the HTTP part alone costs on this machine.
// transfer-floor-capped replays full-sync-capped's requests against an emulator with the same page cap.
import type { BenchContext } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { type ReplayFigures, replayRecorded } from './replay-recorded.js';

function floorFigures(replay: ReplayFigures): StepFigures {
  return {
    seconds: { value: replay.wallMs / 1000, unit: 's' },
    replaySeconds: { value: replay.replayMs / 1000, unit: 's', note: 'without node start-up' },
    requests: { value: replay.requests, unit: 'count' },
    megabytes: { value: replay.bytes / 1e6, unit: 'MB', note: 'response bodies' },
    peakRssMb: { value: replay.maxRssMb, unit: 'MB' },
    cpuSeconds: { value: replay.cpuSeconds, unit: 's', note: 'user + system CPU of the replay process' },
  };
}

export const transferFloorStep: BenchStep = {
  id: 'transfer-floor',
  title: 'Transfer floor: the same requests, bare undici',
  needs: ['full-sync'],
  async run(ctx: BenchContext): Promise<StepFigures> {
    return floorFigures(await replayRecorded(ctx, ctx.fullSync!.requestsFile, 'full'));
  },
};

export const cappedTransferFloorStep: BenchStep = {
  id: 'transfer-floor-capped',
  title: 'Transfer floor of the capped full sync',
  needs: ['full-sync-capped'],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const file = ctx.cappedSync!.requestsFile;
    return floorFigures(
      await replayRecorded(ctx, file, 'full-capped', { maxPageSize: ctx.options.maxPageSize }),
    );
  },
};

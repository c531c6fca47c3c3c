// Step: the transfer floor. Exactly the requests the full sync made (recorded by its emulator) are
// replayed against a fresh emulator holding the same data, with a bare undici Pool at the same
// concurrency, bodies read and discarded: what the HTTP part alone costs on this machine.
import type { BenchContext } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { replayRecorded } from './replay-recorded.js';

export const transferFloorStep: BenchStep = {
  id: 'transfer-floor',
  title: 'Transfer floor: the same requests, bare undici',
  needs: ['full-sync'],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const replay = await replayRecorded(ctx, ctx.fullSync!.requestsFile, 'full');
    return {
      seconds: { value: replay.wallMs / 1000, unit: 's' },
      replaySeconds: { value: replay.replayMs / 1000, unit: 's', note: 'without node start-up' },
      requests: { value: replay.requests, unit: 'count' },
      megabytes: { value: replay.bytes / 1e6, unit: 'MB', note: 'response bodies' },
      peakRssMb: { value: replay.maxRssMb, unit: 'MB' },
      cpuSeconds: { value: replay.cpuSeconds, unit: 's', note: 'user + system CPU of the replay process' },
    };
  },
};

// Step: the transfer floor. Exactly the requests the full sync made (recorded by its emulator) are
// replayed against a fresh emulator holding the same data, with a bare undici Pool at the same
// concurrency, bodies read and discarded: what the HTTP part alone costs on this machine.
import { join } from 'node:path';
import { type BenchContext, startBenchEmulator } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { childScript, runChild } from '../run-child.js';

export const transferFloorStep: BenchStep = {
  id: 'transfer-floor',
  title: 'Transfer floor: the same requests, bare undici',
  needs: ['full-sync'],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const full = ctx.fullSync!;
    const running = await startBenchEmulator(ctx);
    try {
      const child = await runChild(
        childScript('replay-requests.js'),
        [full.requestsFile, running.url, ctx.token, String(ctx.options.concurrency)],
        { resourcesFile: join(ctx.dir, 'resources-transfer.json') },
      );
      if (child.exitCode !== 0) throw new Error(`the replay failed: ${child.stderr.slice(-2000)}`);
      const replay = JSON.parse(child.stdout) as {
        requests: number;
        bytes: number;
        wallMs: number;
        failures: number;
      };
      if (replay.failures > 0)
        throw new Error(`${replay.failures} replayed requests did not answer 2xx: the floor is not valid`);
      return {
        seconds: { value: child.wallMs / 1000, unit: 's' },
        replaySeconds: { value: replay.wallMs / 1000, unit: 's', note: 'without node start-up' },
        requests: { value: replay.requests, unit: 'count' },
        megabytes: { value: replay.bytes / 1e6, unit: 'MB', note: 'response bodies' },
        peakRssMb: { value: child.maxRssMb, unit: 'MB' },
      };
    } finally {
      await running.close();
    }
  },
};

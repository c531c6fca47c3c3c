// Step: the clusters of unhandled questions (issue 35) over a synthetic warehouse of 1,000,000 catch-all
// messages in the period (and 250,000 in the previous one; texts from the emulator's generator: topics with
// paraphrases and typos, one-off noise; bench/children/cluster-unhandled.ts). One computeUnhandled run as a
// process (read, cluster, store; with glibc's malloc set as the executable sets it), against its floor: the
// same period's distinct texts and counts read into memory, nothing else. Targets: ≤ 60 s and ≤ 600 MB peak RSS for 1,000,000 messages (issue 48).
import { join } from 'node:path';
import type { BenchContext } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { type ChildResult, CLI_ENV, childScript, runChild } from '../run-child.js';

export const UNHANDLED_MESSAGES = 1_000_000;

async function runClusterChild(ctx: BenchContext, mode: string, path: string): Promise<ChildResult> {
  const child = await runChild(
    childScript('cluster-unhandled.js'),
    [mode, path, String(UNHANDLED_MESSAGES)],
    // glibc's malloc set as the executable sets it for `reporter-etl unhandled` (the peak RSS is the product's)
    { env: { ...CLI_ENV }, resourcesFile: join(ctx.dir, `resources-unhandled-${mode}.json`) },
  );
  if (child.exitCode !== 0)
    throw new Error(`the unhandled step (${mode}) failed: ${child.stderr.slice(-2000)}`);
  return child;
}

export const unhandledStep: BenchStep = {
  id: 'unhandled',
  title: 'Clusters of 1,000,000 unhandled questions',
  needs: [],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const path = join(ctx.dir, 'unhandled', 'warehouse.duckdb');
    await runClusterChild(ctx, 'build', path);
    const floor = await runClusterChild(ctx, 'floor', path);
    const cluster = await runClusterChild(ctx, 'cluster', path);
    const out = JSON.parse(cluster.stdout) as { unrecognised: number; clustered: number; clusters: number };
    const texts = (JSON.parse(floor.stdout) as { texts: number }).texts;
    ctx.say(
      `bench: ${out.unrecognised.toLocaleString('en')} unhandled questions (${texts.toLocaleString('en')} distinct texts): ${out.clusters} clusters, ${out.clustered.toLocaleString('en')} messages clustered, in ${(cluster.wallMs / 1000).toFixed(1)} s`,
    );
    return {
      seconds: { value: cluster.wallMs / 1000, unit: 's' },
      cpuSeconds: { value: cluster.userCpuS + cluster.systemCpuS, unit: 's', note: 'user + system' },
      floorSeconds: { value: floor.wallMs / 1000, unit: 's' },
      peakRssMb: { value: cluster.maxRssMb, unit: 'MB' },
      floorPeakRssMb: { value: floor.maxRssMb, unit: 'MB' },
      messages: { value: out.unrecognised, unit: 'count' },
      texts: { value: texts, unit: 'count' },
      clusters: { value: out.clusters, unit: 'count' },
      clustered: { value: out.clustered, unit: 'count' },
    };
  },
};

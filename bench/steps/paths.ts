// Step: the dialog paths (issue 47) over a synthetic warehouse of 1,000,000 messages in the period (250,000
// sessions, and a quarter as many in the previous period; bench/children/compute-paths.ts). One computePaths
// as a process (the flows, the previous period's routes, the platform's routes beside ours), against its
// floor: the same sessions' messages joined and counted per state, nothing else. Targets: ≤ 5 s and ≤ 500 MB
// peak RSS for 1,000,000 messages.
import { join } from 'node:path';
import type { BenchContext } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { type ChildResult, childScript, runChild } from '../run-child.js';

export const PATHS_MESSAGES = 1_000_000;

async function runPathsChild(ctx: BenchContext, mode: string, path: string): Promise<ChildResult> {
  const child = await runChild(childScript('compute-paths.js'), [mode, path, String(PATHS_MESSAGES)], {
    resourcesFile: join(ctx.dir, `resources-paths-${mode}.json`),
  });
  if (child.exitCode !== 0) throw new Error(`the paths step (${mode}) failed: ${child.stderr.slice(-2000)}`);
  return child;
}

export const pathsStep: BenchStep = {
  id: 'paths',
  title: 'Dialog paths of 1,000,000 messages',
  needs: [],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const path = join(ctx.dir, 'paths', 'warehouse.duckdb');
    await runPathsChild(ctx, 'build', path);
    const floor = await runPathsChild(ctx, 'floor', path);
    const paths = await runPathsChild(ctx, 'paths', path);
    const out = JSON.parse(paths.stdout) as { sessions: number; withPath: number; routes: number };
    ctx.say(
      `bench: ${PATHS_MESSAGES.toLocaleString('en')} messages, ${out.sessions.toLocaleString('en')} sessions: ${out.routes.toLocaleString('en')} distinct paths in ${(paths.wallMs / 1000).toFixed(1)} s (floor ${(floor.wallMs / 1000).toFixed(1)} s)`,
    );
    return {
      seconds: { value: paths.wallMs / 1000, unit: 's' },
      cpuSeconds: { value: paths.userCpuS + paths.systemCpuS, unit: 's', note: 'user + system' },
      floorSeconds: { value: floor.wallMs / 1000, unit: 's' },
      peakRssMb: { value: paths.maxRssMb, unit: 'MB' },
      floorPeakRssMb: { value: floor.maxRssMb, unit: 'MB' },
      messages: { value: PATHS_MESSAGES, unit: 'count' },
      sessions: { value: out.sessions, unit: 'count' },
      routes: { value: out.routes, unit: 'count' },
    };
  },
};

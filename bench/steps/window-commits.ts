// Step: what keeping the statistics' rollups costs the sync. The full sync's warehouse cut into its windows
// again and each committed, as the sync commits it, into two fresh warehouses by turns, one keeping the
// rollups and one without (children/replay-commits.ts): their CPU and wall time, and the ratio (target
// ≤ 1.1: the window commit grows by at most 10 %). Both in one process and one run, so the ratio holds on a
// shared machine where the absolute times do not.

import { loadavg } from 'node:os';
import { join } from 'node:path';
import { CONFIG_DEFAULTS } from '../../src/config.js';
import type { BenchContext } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { childScript, runChild } from '../run-child.js';

interface Replay {
  windows: number;
  messages: number;
  withRollups: { cpuMs: number; wallMs: number };
  without: { cpuMs: number; wallMs: number };
}

export const windowCommitsStep: BenchStep = {
  id: 'window-commits',
  title: "The window commits with and without the statistics' rollups",
  needs: ['full-sync'],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const full = ctx.fullSync!;
    const child = await runChild(
      childScript('replay-commits.js'),
      [
        join(full.dataDir, 'warehouse.duckdb'),
        join(ctx.dir, 'replayed-commits'),
        String(replayWindowHours(full.windows, ctx.options.days)),
      ],
      { resourcesFile: join(ctx.dir, 'resources-window-commits.json') },
    );
    if (child.exitCode !== 0) throw new Error(`the window commits failed: ${child.stderr.slice(-2000)}`);
    const r = JSON.parse(child.stdout) as Replay;
    const note = `${r.windows} windows, ${r.messages.toLocaleString('en')} messages, load ${loadavg()[0]!.toFixed(1)}`;
    return {
      commitCpuWithRollups: { value: r.withRollups.cpuMs / 1000, unit: 's', note },
      commitCpuWithout: { value: r.without.cpuMs / 1000, unit: 's', note },
      commitWallWithRollups: { value: r.withRollups.wallMs / 1000, unit: 's', note },
      commitWallWithout: { value: r.without.wallMs / 1000, unit: 's', note },
      commitCpuRatio: {
        value: r.withRollups.cpuMs / Math.max(1, r.without.cpuMs),
        unit: 'ratio',
        note: 'CPU of the commits keeping the rollups ÷ the same commits without (target ≤ 1.1)',
      },
      commitWallRatio: { value: r.withRollups.wallMs / Math.max(1, r.without.wallMs), unit: 'ratio' },
    };
  },
};

/**
 * The replay's window: the sync's default, or shorter where the sync split its windows (dense data: it bounds
 * a window by sessions and bytes, and one default window of a busy day would not fit the sync's 64MB).
 */
function replayWindowHours(syncWindows: number, days: number): number {
  const span = days * 24;
  const byDefault = CONFIG_DEFAULTS.REPORTER_WINDOW_HOURS;
  // whole quarter hours: the child binds window bounds as whole milliseconds
  const split = Math.max(0.25, Math.floor((span / syncWindows) * 4) / 4);
  return syncWindows > Math.ceil(span / byDefault) ? split : byDefault;
}

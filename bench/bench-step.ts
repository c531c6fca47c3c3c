// What a benchmark step is: one measurement in one file, with the steps it needs run before it, and the
// figures it reports. The runner (run-bench.ts) orders the steps, hands them the shared BenchContext and
// collects their figures; summarise-results.ts turns the figures into ratios, targets and the table.
import type { BenchContext } from './bench-context.js';

/** A measured value; `null` when the step could not measure it (the note says why). */
export interface Figure {
  value: number | null;
  unit: 's' | 'ms' | 'MB' | 'count' | 'per 1000' | 'ratio' | 'rows/s';
  note?: string;
}

export type StepFigures = Record<string, Figure>;

export interface BenchStep {
  /** Short id used by `--only` and as the key in the results file. */
  id: string;
  title: string;
  /** Steps whose outputs this one reads (run first even when `--only` leaves them out). */
  needs: readonly string[];
  run(ctx: BenchContext): Promise<StepFigures>;
}

// Writes the results file (bench/results/latest.json by default): the machine, the size, the command,
// the summary rows (ratios first) and every step's raw figures. Written to a temp name, then renamed.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { StepFigures } from './bench-step.js';
import type { MachineDescription } from './describe-machine.js';
import type { ResultRow } from './summarise-results.js';

export interface BenchResults {
  schemaVersion: 1;
  generatedAt: string;
  command: string;
  machine: MachineDescription;
  size: { sessions: number; days: number; concurrency: number; seed: number; statsMessages: number };
  rows: ResultRow[];
  steps: Record<string, StepFigures>;
}

export function writeResults(path: string, results: BenchResults): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.tmp-${process.pid}`;
  writeFileSync(temp, `${JSON.stringify(results, null, 2)}\n`);
  renameSync(temp, path);
}

// The benchmark's steps in the order they run, and the choice of steps for `--only` (a step's
// prerequisites are always added). Adding a measurement = one file in steps/ and one entry here.
import type { BenchStep } from './bench-step.js';
import { concurrentReadersStep } from './steps/concurrent-readers.js';
import { exportsStep } from './steps/exports.js';
import { cappedFullSyncStep, fullSyncStep } from './steps/full-sync.js';
import { incrementalSyncStep } from './steps/incremental-sync.js';
import { loadFloorStep } from './steps/load-floor.js';
import { nativeFloorStep } from './steps/native-floor.js';
import { parseFloorStep } from './steps/parse-floor.js';
import { remoteStep } from './steps/remote.js';
import { sideBySideStep } from './steps/side-by-side.js';
import { statsQueriesStep } from './steps/stats-queries.js';
import { syncLeversStep } from './steps/sync-levers.js';
import { cappedTransferFloorStep, transferFloorStep } from './steps/transfer-floor.js';
import { unhandledStep } from './steps/unhandled.js';
import { webhooksStep } from './steps/webhooks.js';
import { webhooksLargeStep } from './steps/webhooks-large.js';
import { windowCommitsStep } from './steps/window-commits.js';
import { xlsxExportStep } from './steps/xlsx-export.js';

/** Every step, in the order they run. */
export const STEPS: readonly BenchStep[] = [
  fullSyncStep,
  transferFloorStep,
  cappedFullSyncStep,
  cappedTransferFloorStep,
  loadFloorStep,
  parseFloorStep,
  nativeFloorStep,
  syncLeversStep,
  incrementalSyncStep,
  statsQueriesStep,
  windowCommitsStep,
  unhandledStep,
  xlsxExportStep,
  exportsStep,
  webhooksStep,
  webhooksLargeStep,
  remoteStep,
  sideBySideStep,
  concurrentReadersStep,
];

/** The steps to run for `--only` (with what they need), in STEPS order. */
export function selectSteps(only: readonly string[] | undefined): BenchStep[] {
  if (only === undefined) return [...STEPS];
  const wanted = new Set<string>();
  const add = (id: string): void => {
    if (wanted.has(id)) return;
    wanted.add(id);
    for (const need of STEPS.find((s) => s.id === id)?.needs ?? []) add(need);
  };
  for (const id of only) add(id);
  return STEPS.filter((s) => wanted.has(s.id));
}

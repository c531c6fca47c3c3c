// The registry of scheduled jobs, in the order the scheduler starts them and catches them up (sync first,
// so the daily reports that fire with it read fresh data): the core's jobs (this folder) and the jobs the
// source and destination units offer (src/sources/registry.ts, src/destinations/registry.ts), adapted into
// scheduler Jobs. Only src/cli/ imports it.
import { DESTINATIONS } from '../src/destinations/registry.js';
import type { Job } from '../src/schedule/job.js';
import { SOURCES } from '../src/sources/registry.js';
import type { SourceJobSpec } from '../src/sources/source-unit.js';
import { dailyReportJob } from './daily-report.js';
import { platformDailyJob } from './platform-daily.js';
import { retentionJob } from './retention.js';
import { syncJob } from './sync.js';

/** A unit's declared job as the scheduler runs it (JobContext and JobResult fit the unit's shapes). */
export function adaptJob(spec: SourceJobSpec): Job {
  const { describe, ...rest } = spec;
  return { ...rest, description: describe, run: (ctx) => spec.run(ctx) };
}

export const JOBS: readonly Job[] = [
  syncJob,
  ...SOURCES.flatMap((s) => s.jobs.map(adaptJob)),
  dailyReportJob,
  platformDailyJob,
  ...DESTINATIONS.flatMap((d) => d.jobs.map(adaptJob)),
  retentionJob,
];

export function findJob(id: string): Job | undefined {
  return JOBS.find((j) => j.id === id);
}

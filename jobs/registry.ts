// The registry of scheduled jobs, in the order the scheduler starts them and catches them up (sync first,
// so the daily reports that fire with it read fresh data). Only src/cli/ imports it.
import type { Job } from '../src/schedule/job.js';
import { chatApiEventsJob } from './chatapi-events.js';
import { dailyReportJob } from './daily-report.js';
import { exportParquetJob } from './export-parquet.js';
import { kbSyncJob } from './kb-sync.js';
import { platformDailyJob } from './platform-daily.js';
import { retentionJob } from './retention.js';
import { syncJob } from './sync.js';

export const JOBS: readonly Job[] = [
  syncJob,
  chatApiEventsJob,
  dailyReportJob,
  platformDailyJob,
  exportParquetJob,
  kbSyncJob,
  retentionJob,
];

export function findJob(id: string): Job | undefined {
  return JOBS.find((j) => j.id === id);
}

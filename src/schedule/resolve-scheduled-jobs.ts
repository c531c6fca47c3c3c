// The jobs of the registry with the schedule in force (default or REPORTER_SCHEDULE_<ID>) and whether
// REPORTER_JOBS enables them. Errors name the setting: an unknown job id in REPORTER_JOBS or in a schedule
// override is refused at start, never ignored. A job lacking a setting it needs (Job.missingSetting) is off
// everywhere: listed as such, never scheduled, and refused by `run <job>` naming the setting.

import type { Config } from '../config.js';
import { UsageError } from '../errors.js';
import { didYouMean } from '../text/suggest-near.js';
import type { Job } from './job.js';
import type { ScheduledJob } from './scheduler.js';

export function resolveScheduledJobs(config: Config, registry: readonly Job[]): ScheduledJob[] {
  const known = registry.map((j) => j.id);
  const list = known.join(', ');
  for (const id of config.jobs ?? [])
    if (!known.includes(id))
      throw new UsageError(
        `REPORTER_JOBS (or schedule.jobs in REPORTER_CONFIG): no job "${id}"${didYouMean(id, known)}; the jobs are ${list}, or "all"`,
        'config.invalid',
      );
  for (const [id, { setting }] of Object.entries(config.schedules))
    if (!known.includes(id))
      throw new UsageError(
        `${setting}: no job "${id}"${didYouMean(id, known)} to schedule; the jobs are ${list}`,
        'config.invalid',
      );
  return registry.map((job) => {
    const override = config.schedules[job.id];
    const needs = job.missingSetting?.(config)?.setting ?? null;
    return {
      job,
      expression: override?.expression ?? job.defaultSchedule,
      setting: override?.setting ?? null,
      enabled: (config.jobs === null || config.jobs.includes(job.id)) && needs === null,
      needs,
    };
  });
}

/** `run <job>` of a job lacking a setting it needs: a usage error (exit 2) naming the setting. */
export function checkJobSettings(config: Config, job: Job): void {
  const missing = job.missingSetting?.(config);
  if (missing)
    throw new UsageError(
      `${missing.setting}: is not set; the job ${job.id} needs it (${missing.meaning}), and is off without it`,
      'config.missing',
    );
}

/** The token settings are needed when an enabled job talks to the Reporter API. */
export function checkApiConfigured(config: Config, jobs: readonly Job[]): void {
  const needing = jobs.filter((j) => j.needsApi).map((j) => j.id);
  if (needing.length > 0 && config.projects.length === 0)
    throw new UsageError(
      `REPORTER_TOKEN: is required by the job${needing.length > 1 ? 's' : ''} ${needing.join(', ')} (the Reporter API token; or REPORTER_CONFIG naming a JSON file with "projects"; or leave ${needing.length > 1 ? 'them' : 'it'} out of REPORTER_JOBS)`,
      'config.missing',
    );
}

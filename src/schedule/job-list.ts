// What `schedule --list` shows: every registered job with the schedule in force, where that schedule came
// from, whether it is enabled, its next fire time (in REPORTER_TZ) and its last successful run.
import { nextFireTime } from './cron-times.js';
import type { ScheduledJob } from './scheduler.js';

export interface JobListing {
  job: string;
  enabled: boolean;
  /** The setting the job needs and does not have (the job is then off); null: nothing missing. */
  needs: string | null;
  schedule: string;
  /** "default", or the setting that replaced it. */
  scheduleFrom: string;
  timeZone: string;
  /** Next fire time (ISO, UTC) and the same instant in the zone ("2026-11-21 07:00"); null when disabled. */
  nextRun: string | null;
  nextRunLocal: string | null;
  lastSuccess: string | null;
  description: string;
}

const localFormats = new Map<string, Intl.DateTimeFormat>();

/** "2026-11-21 07:00" in the zone. */
export function formatLocal(t: number, timeZone: string): string {
  let format = localFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    localFormats.set(timeZone, format);
  }
  return format.format(new Date(t));
}

export function listJobs(
  jobs: readonly ScheduledJob[],
  timeZone: string,
  now: number,
  lastSuccesses: ReadonlyMap<string, number>,
): JobListing[] {
  return jobs.map((s) => {
    const next = s.enabled ? nextFireTime(s.expression, timeZone, now) : undefined;
    const last = lastSuccesses.get(s.job.id);
    return {
      job: s.job.id,
      enabled: s.enabled,
      needs: s.needs,
      schedule: s.expression,
      scheduleFrom: s.setting ?? 'default',
      timeZone,
      nextRun: next === undefined ? null : new Date(next).toISOString(),
      nextRunLocal: next === undefined ? null : formatLocal(next, timeZone),
      lastSuccess: last === undefined ? null : new Date(last).toISOString(),
      description: s.job.description,
    };
  });
}

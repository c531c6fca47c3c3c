// Catch-up at scheduler start: which enabled jobs missed a run while no scheduler was up. A job is due when it
// never ran successfully, or when its last successful run (success or partial, any trigger) started more than
// one interval of its schedule ago. A plain function of its inputs, so tests drive it with any clock.
import { scheduleInterval } from './cron-times.js';

export interface CatchUpInput {
  jobId: string;
  expression: string;
}

export interface CatchUpDecision {
  jobId: string;
  due: boolean;
  /** Why, in words: "never ran successfully", "last success 2 h 5 min ago, interval 15 min". */
  reason: string;
  lastSuccessAt: number | null;
  intervalMs: number | null;
}

export function formatAge(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  return `${Math.round(hours / 24)} days`;
}

export function decideCatchUp(
  jobs: readonly CatchUpInput[],
  lastSuccesses: ReadonlyMap<string, number>,
  now: number,
  timeZone: string,
): CatchUpDecision[] {
  return jobs.map(({ jobId, expression }) => {
    const last = lastSuccesses.get(jobId);
    const interval = scheduleInterval(expression, timeZone, now) ?? null;
    if (last === undefined)
      return {
        jobId,
        due: true,
        reason: 'never ran successfully',
        lastSuccessAt: null,
        intervalMs: interval,
      };
    if (interval === null)
      return {
        jobId,
        due: false,
        reason: `its schedule "${expression}" fired less than twice in the last two years`,
        lastSuccessAt: last,
        intervalMs: null,
      };
    const age = now - last;
    return {
      jobId,
      due: age > interval,
      reason: `last success ${formatAge(age)} ago, interval ${formatAge(interval)}`,
      lastSuccessAt: last,
      intervalMs: interval,
    };
  });
}

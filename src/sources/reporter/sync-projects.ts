// The sync of several projects, written once for `reporter-etl sync` and the scheduler's sync job: each
// project in turn, then what follows them (the Chat API channels' history, handed in: src/sources/reporter does not
// import the Chat API), told which projects another sync's lease refused. Never throws for a project: each
// one's failure is its summary; the callers keep their own output and exit codes.
import type { ProjectConfig } from '../../config.js';
import {
  isRefusedByLease,
  type SyncContext,
  type SyncOptions,
  type SyncSummary,
  syncProject,
} from './run-sync.js';

export interface ProjectsSyncPlan<F> {
  projects: readonly ProjectConfig[];
  options: SyncOptions;
  /**
   * Once the context's signal is aborted, the projects not begun are left out (the job counts them as not
   * synced); otherwise each of them is still called and records its own interruption (the command).
   */
  skipProjectsAfterSignal: boolean;
  /** After each project's sync, with when it started (the job records a run that failed before its row). */
  afterProject?: (summary: SyncSummary, startedAt: number) => Promise<void> | void;
  /**
   * What follows the projects (the Chat API channels' history), given the projects another sync's lease
   * refused; not run once the signal is aborted, nor when `followUpAfterAllRefused` is false and every
   * project was refused (that other sync does it).
   */
  followUp?: (refusedProjects: string[]) => Promise<F[]>;
  followUpAfterAllRefused: boolean;
}

export interface ProjectsSyncResult<F> {
  summaries: SyncSummary[];
  followUps: F[];
  /** Every project synced was refused by another sync's lease: it did nothing, and nothing should follow it. */
  allRefused: boolean;
}

/** Syncs each project of the plan in turn, then runs its follow-up (the Chat API channels' history). */
export async function syncProjects<F>(
  ctx: SyncContext,
  plan: ProjectsSyncPlan<F>,
): Promise<ProjectsSyncResult<F>> {
  const now = ctx.now ?? Date.now;
  const summaries: SyncSummary[] = [];
  for (const project of plan.projects) {
    if (plan.skipProjectsAfterSignal && ctx.signal?.aborted) break;
    const startedAt = now();
    const summary = await syncProject(ctx, project, plan.options);
    await plan.afterProject?.(summary, startedAt);
    summaries.push(summary);
  }
  const allRefused = summaries.length > 0 && summaries.every(isRefusedByLease);
  const followUps: F[] = [];
  if (plan.followUp && !ctx.signal?.aborted && (plan.followUpAfterAllRefused || !allRefused))
    followUps.push(...(await plan.followUp(summaries.filter(isRefusedByLease).map((s) => s.project))));
  return { summaries, followUps, allRefused };
}

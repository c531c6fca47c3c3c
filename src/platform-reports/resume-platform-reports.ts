// Resumes the report tasks a previous run left open (creating or pending) on this platform and project:
// `platform-report --resume`, and the first step of every `platform-report <kind>` run. Invariants: a
// task is never created again by a resume (pending tasks are waited for by their request or task id; an
// unanswered create is settled through the platform's task list); a task another live process on this host
// is waiting for is left to it.
import { EXIT } from '../errors.js';
import { finishTask, type TaskOutcome } from './finish-task.js';
import type { ReconcileResult } from './reconcile-report.js';
import {
  openReportSession,
  type PlatformReportContext,
  type ReportSession,
  type WaitOptions,
} from './report-session.js';
import { describePeriod } from './resolve-report-period.js';
import type { TaskRecord } from './task-store.js';

export interface RunOptions {
  /** Overall deadline of the run, in ms of real time. */
  deadlineMs: number;
  /** Seconds one long poll may block (0..30). */
  pollSeconds: number;
  outDir: string;
}

export interface SkippedTask {
  id: string;
  kind: string;
  period: string;
  ownerPid: number;
}

export interface PlatformReportResult {
  project: string;
  outcomes: TaskOutcome[];
  skipped: SkippedTask[];
  reconcile?: ReconcileResult;
  exitCode: number;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Another live process of this host is waiting for the task. */
export function ownedElsewhere(session: ReportSession, record: TaskRecord): boolean {
  return (
    record.ownerPid !== null &&
    record.ownerPid !== session.pid &&
    record.ownerHost === session.host &&
    isAlive(record.ownerPid)
  );
}

export function waitOptions(options: RunOptions): WaitOptions {
  return {
    deadline: performance.now() + options.deadlineMs,
    pollSeconds: options.pollSeconds,
    outDir: options.outDir,
  };
}

/** Finishes the open tasks (except `exclude`), one after another, within the run's deadline. */
export async function resumeOpenTasks(
  session: ReportSession,
  options: WaitOptions,
  exclude?: string,
): Promise<{ outcomes: TaskOutcome[]; skipped: SkippedTask[] }> {
  const open = await session.store.listOpen(session.scope);
  const outcomes: TaskOutcome[] = [];
  const skipped: SkippedTask[] = [];
  for (const record of open) {
    if (record.id === exclude) continue;
    if (ownedElsewhere(session, record)) {
      skipped.push({
        id: record.id,
        kind: record.kind,
        period: describePeriod({ from: record.periodFrom, to: record.periodTo }),
        ownerPid: record.ownerPid!,
      });
      continue;
    }
    session.log.info(
      { id: record.id, kind: record.kind, requestId: record.requestId, taskId: record.taskId },
      'resuming a report task',
    );
    outcomes.push(...(await finishTask(session, record, options)));
  }
  return { outcomes, skipped };
}

/** 1 when a task failed, 75 when one is still pending, 3 when a reconciliation found differences, else 0. */
export function exitCodeOf(outcomes: readonly TaskOutcome[], reconcile?: ReconcileResult): number {
  const replaced = new Set(outcomes.map((o) => o.replaces));
  const failed = (o: TaskOutcome) =>
    o.status === 'failed' || o.status === 'deleted' || (o.status === 'expired' && !replaced.has(o.id));
  if (outcomes.some(failed)) return EXIT.failed;
  if (outcomes.some((o) => o.status === 'pending' || o.status === 'creating')) return EXIT.tryLater;
  if (reconcile && !reconcile.agree) return EXIT.partial;
  return EXIT.ok;
}

/** `platform-report --resume`: finishes the open tasks without creating any. */
export async function resumePlatformReports(
  ctx: PlatformReportContext,
  options: RunOptions,
): Promise<PlatformReportResult> {
  const session = await openReportSession(ctx);
  try {
    const { outcomes, skipped } = await resumeOpenTasks(session, waitOptions(options));
    return { project: session.project, outcomes, skipped, exitCode: exitCodeOf(outcomes) };
  } finally {
    await session.close();
  }
}

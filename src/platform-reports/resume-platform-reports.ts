// Resumes the report tasks a previous run left open (creating or pending) on this platform and project:
// `platform-report --resume`, and the first step of every `platform-report <kind>` run. Invariants: a
// task is never created again by a resume (pending tasks are waited for by their request or task id; an
// unanswered create is settled through the platform's task list); a task whose owner is known dead (this
// host: PID gone, a zombie, a reused PID; src/process/process-identity.ts) is taken over at once; one whose lease
// another process holds (a heartbeat fresher than LEASE.staleMs) is left to it, and --resume then exits 75;
// one whose owner stopped beating (it hangs, or a recreated container on another host) is taken over.
import { EXIT } from '../errors.js';
import { judgeOwner, type OwnerVerdict } from '../process/process-identity.js';
import { isLeaseFresh } from '../warehouse/lease.js';
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
  ownerPid: number | null;
  ownerHost: string | null;
  ownerId: string | null;
  /** The owner's last heartbeat (epoch ms). */
  heartbeatAt: number | null;
  /** 'alive': its process is seen running on this host; 'unknown': only its fresh heartbeat says so. */
  ownerState: 'alive' | 'unknown';
}

export interface PlatformReportResult {
  project: string;
  outcomes: TaskOutcome[];
  skipped: SkippedTask[];
  reconcile?: ReconcileResult;
  exitCode: number;
}

/** Whether the process recorded as the task's owner is alive (src/process/process-identity.ts). */
function judgeTaskOwner(record: TaskRecord): OwnerVerdict {
  return judgeOwner({
    host: record.ownerHost,
    pid: record.ownerPid,
    bootId: record.ownerBootId,
    startTicks: record.ownerStartTicks,
  });
}

/** Another session's owner is known dead: its lease is free at once, whatever its heartbeat. */
function ownerIsDead(session: ReportSession, record: TaskRecord): boolean {
  return (
    record.ownerId !== null && record.ownerId !== session.ownerId && judgeTaskOwner(record).state === 'dead'
  );
}

/** Another session (of this or another process or host) holds the task's lease: alive, its heartbeat fresh. */
export function ownedElsewhere(session: ReportSession, record: TaskRecord): boolean {
  return (
    record.ownerId !== null &&
    record.ownerId !== session.ownerId &&
    !ownerIsDead(session, record) &&
    isLeaseFresh(record.heartbeatAt, session.now(), session.lease)
  );
}

/** Takes the task's lease for this session; false when another owner, not known dead, still beats. */
export function claimTask(session: ReportSession, record: TaskRecord): Promise<boolean> {
  const deadOwnerId = ownerIsDead(session, record) ? record.ownerId : null;
  return session.store.claim(record.id, session.owner, session.lease.staleMs, deadOwnerId);
}

function skippedOf(record: TaskRecord): SkippedTask {
  return {
    id: record.id,
    kind: record.kind,
    period: describePeriod({ from: record.periodFrom, to: record.periodTo }),
    ownerPid: record.ownerPid,
    ownerHost: record.ownerHost,
    ownerId: record.ownerId,
    heartbeatAt: record.heartbeatAt,
    ownerState: judgeTaskOwner(record).state === 'alive' ? 'alive' : 'unknown',
  };
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
    if (ownedElsewhere(session, record) || !(await claimTask(session, record))) {
      // read again: a claim lost to another process shows its owner now
      const left = skippedOf((await session.store.get(record.id)) ?? record);
      skipped.push(left);
      session.log.info(
        { id: record.id, kind: record.kind, ownerPid: left.ownerPid, ownerHost: left.ownerHost },
        left.ownerState === 'alive'
          ? 'another process of this host waits for the task: left to it'
          : 'another process holds the task (its heartbeat is fresh): left to it',
      );
      continue;
    }
    if (ownerIsDead(session, record))
      session.log.info(
        { id: record.id, ownerPid: record.ownerPid, ownerHost: record.ownerHost },
        `the task's previous process ${judgeTaskOwner(record).reason}: taken over`,
      );
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
    // a task left to another process is not finished yet: try again later (unless something failed)
    const code = exitCodeOf(outcomes);
    const exitCode = code === EXIT.ok && skipped.length > 0 ? EXIT.tryLater : code;
    return { project: session.project, outcomes, skipped, exitCode };
  } finally {
    await session.close();
  }
}

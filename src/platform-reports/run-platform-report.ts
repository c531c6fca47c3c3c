// `platform-report <kind>`: first finishes the tasks a previous run left open, then asks the platform for
// the report (or, when an open task already asks for exactly this report, finishes that one instead of
// creating another), waits, downloads and verifies the file, and optionally reconciles it with the warehouse.
// Invariant: every usage error (kind, period, filters, --reconcile) is raised before anything is sent.
import { buildCreateRequest, type ReportSpec } from './build-create-request.js';
import { createTask } from './create-task.js';
import { finishTask, type TaskOutcome } from './finish-task.js';
import { checkReconcilable, type ReconcileResult, reconcileReport } from './reconcile-report.js';
import { openReportSession, type PlatformReportContext } from './report-session.js';
import {
  claimTask,
  exitCodeOf,
  ownedElsewhere,
  type PlatformReportResult,
  type RunOptions,
  resumeOpenTasks,
  waitOptions,
} from './resume-platform-reports.js';
import type { TaskRecord } from './task-store.js';

export interface RunPlatformReportOptions extends RunOptions {
  reconcile?: boolean;
}

function asksFor(record: TaskRecord, spec: ReportSpec): boolean {
  return (
    record.kind === spec.kind &&
    record.periodFrom === spec.period.from &&
    record.periodTo === spec.period.to &&
    record.fileType === spec.fileType &&
    JSON.stringify(record.filters) === JSON.stringify(spec.filters)
  );
}

export async function runPlatformReport(
  ctx: PlatformReportContext,
  spec: ReportSpec,
  options: RunPlatformReportOptions,
): Promise<PlatformReportResult> {
  buildCreateRequest(spec, ctx.project.api, ctx.project.project ?? '(project)');
  if (options.reconcile) checkReconcilable(spec);
  const session = await openReportSession(ctx);
  try {
    const wait = waitOptions(options);
    const open = await session.store.listOpen(session.scope);
    const candidate = open.find((r) => asksFor(r, spec) && !ownedElsewhere(session, r));
    const same = candidate && (await claimTask(session, candidate)) ? candidate : undefined;
    if (same)
      session.log.info({ id: same.id, kind: same.kind }, 'an open task asks for this report: finishing it');
    const resumed = await resumeOpenTasks(session, wait, same?.id);
    const record = same ?? (await createTask(session, spec, { outDir: options.outDir }));
    const mine: TaskOutcome[] = await finishTask(session, record, wait);
    const outcomes = [...resumed.outcomes, ...mine];
    const last = mine[mine.length - 1];
    let reconcile: ReconcileResult | undefined;
    if (options.reconcile && last?.status === 'completed' && last.filePath !== null) {
      const watermark = await session.store.watermark(session.project);
      reconcile = await reconcileReport(ctx.withWarehouse, spec, last.filePath, session.project, watermark);
    }
    return {
      project: session.project,
      outcomes,
      skipped: resumed.skipped,
      ...(reconcile ? { reconcile } : {}),
      exitCode: exitCodeOf(outcomes, reconcile),
    };
  } finally {
    await session.close();
  }
}

// Runs one report task in real time: CREATED, then STARTED, progress as rows reach the file, then
// COMPLETED with its file (or FAILED). Invariants: writeCount is the number of rows already written to the
// file, never above totalCount nor ahead of rowsPerSecond × real seconds since STARTED; the file appears
// under its final name only when complete; an aborted run (delete, close) changes nothing more.
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep, setImmediate as yieldToEvents } from 'node:timers/promises';
import type { ReportTask } from './report-types.js';
import { openReportWriter, type ReportWriter } from './report-writer.js';

/** Real ms between progress steps. */
export const TICK_MS = 100;
/** Rows rendered and written in one go. */
const BATCH_ROWS = 2_000;

export interface RunnerHooks {
  rowsPerSecond: number;
  /** The directory this task's file goes to (created by the runner). */
  directory(): Promise<string>;
  /** Called after every state change of the task (one async event each). */
  changed(task: ReportTask): void;
}

class PlannedFailure extends Error {}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** `messages-20261101-000000-1a2b3c4d.xlsx`: kind, creation time (UTC), task id prefix. */
export function reportFileName(task: ReportTask): string {
  const d = new Date(task.creationTime);
  const stamp = `${d.getUTCFullYear()}${pad2(d.getUTCMonth() + 1)}${pad2(d.getUTCDate())}-${pad2(d.getUTCHours())}${pad2(d.getUTCMinutes())}${pad2(d.getUTCSeconds())}`;
  return `${task.kind}-${stamp}-${task.taskId.slice(0, 8)}.${task.settings.fileType === 'CSV' ? 'csv' : 'xlsx'}`;
}

export async function runReportTask(task: ReportTask, hooks: RunnerHooks): Promise<void> {
  const signal = task.abort.signal;
  const rate = Math.max(1, hooks.rowsPerSecond);
  let writer: ReportWriter | undefined;
  let partPath: string | undefined;
  try {
    const table = task.table;
    if (!table) throw new Error('the task has no rows to write');
    await sleep(TICK_MS, undefined, { signal });
    const dir = join(await hooks.directory(), task.taskId);
    await mkdir(dir, { recursive: true });
    const fileName = reportFileName(task);
    const finalPath = join(dir, fileName);
    partPath = `${finalPath}.part`;
    signal.throwIfAborted();
    writer = await openReportWriter({
      path: partPath,
      columns: table.columns,
      settings: task.settings,
      sheet: table.sheet,
      timezoneOffset: task.timezoneOffset,
      bom: task.csvBom,
    });
    signal.throwIfAborted();
    task.status = 'STARTED';
    hooks.changed(task);
    const startedAt = Date.now();
    for (;;) {
      await sleep(TICK_MS, undefined, { signal });
      if (task.failPlanned)
        throw new PlannedFailure(
          'Report generation failed: the storage refused the file (emulated reportFail fault)',
        );
      const due = Math.min(task.totalCount, Math.floor(((Date.now() - startedAt) * rate) / 1000));
      if (due > task.writeCount) {
        while (task.writeCount < due) {
          const next = Math.min(due, task.writeCount + BATCH_ROWS);
          await writer.write(table.render(task.writeCount, next));
          signal.throwIfAborted();
          task.writeCount = next;
          // between batches, let other requests run while a large step renders
          if (next < due) await yieldToEvents(undefined, { signal });
        }
        if (due < task.totalCount) hooks.changed(task);
      }
      if (task.writeCount >= task.totalCount) break;
    }
    const finished = writer;
    writer = undefined;
    await finished.finish();
    signal.throwIfAborted();
    await rename(partPath, finalPath);
    signal.throwIfAborted();
    task.filePath = finalPath;
    task.fileName = fileName;
    task.fileUrl = `${task.urlBase}/reports/files/${task.taskId}/${encodeURIComponent(fileName)}`;
    task.completedAt = Date.now();
    task.status = 'COMPLETED';
    delete task.table;
    hooks.changed(task);
  } catch (error) {
    writer?.abort();
    if (partPath !== undefined) await rm(partPath, { force: true }).catch(() => {});
    if (signal.aborted) return;
    const message = error instanceof Error ? error.message : String(error);
    task.status = 'FAILED';
    task.error = { error: 'reporter.report.generation_failed', message, args: { taskId: task.taskId } };
    delete task.table;
    hooks.changed(task);
  }
}

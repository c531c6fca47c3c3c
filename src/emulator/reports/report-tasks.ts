// The emulator's report tasks: the store of tasks per account, their runs, the async events they emit and
// the files they write (under options.filesDir or a temp dir, removed by close()). Invariants: a task
// belongs to one account and is only seen through it; a v1 task emits one async event per state change;
// close() stops every run and timer and answers every pending long poll.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../api-error.js';
import type { Emulator } from '../emulator.js';
import { timezoneOffset } from '../params.js';
import type { Route, RouteContext } from '../route.js';
import { AsyncEventLog } from './async-events.js';
import { createRoutes } from './create-routes.js';
import { eventsRoute } from './events-route.js';
import { asyncRequestId, reportTaskId } from './report-ids.js';
import { runReportTask } from './report-runner.js';
import type { ReportSource } from './report-sources.js';
import { isFinished, REPORT_TYPE_OF, type ReportKind, type ReportTask, taskDto } from './report-types.js';
import { taskRoutes } from './task-routes.js';

export class ReportTasks {
  readonly emulator: Emulator;
  readonly events: AsyncEventLog;
  private readonly tasks = new Map<string, ReportTask>();
  private readonly running = new Set<Promise<void>>();
  private created = 0;
  private directoryPromise: Promise<string> | undefined;
  private closed = false;

  constructor(emulator: Emulator) {
    this.emulator = emulator;
    this.events = new AsyncEventLog(() => emulator.clock.now());
  }

  routes(): Route[] {
    return [...createRoutes(this), ...taskRoutes(this), eventsRoute(this)];
  }

  /** Long polls waiting for events now. */
  get pendingPolls(): number {
    return this.events.pending;
  }

  /** Creates a task over a validated source and starts it; `async` (v1) gives it a request and events. */
  create(ctx: RouteContext, kind: ReportKind, source: ReportSource, options: { async: boolean }): ReportTask {
    const offset = timezoneOffset(ctx.headers['timezone']);
    if (this.closed) throw new ApiError(503, 'reporter.service_unavailable', 'the emulator is shutting down');
    const n = this.created++;
    const seed = this.emulator.options.seed;
    const fault = this.emulator.faults.take(['reportFail'], { path: ctx.path, method: ctx.method });
    const reporterPrefix = ctx.generation === 'legacy' ? ctx.prefix : '/api/v1/reporter';
    const task: ReportTask = {
      taskId: reportTaskId(seed, n),
      accountId: source.project.accountId,
      projectShortName: source.project.name,
      kind,
      reportType: REPORT_TYPE_OF[kind],
      settings: source.settings,
      creationTime: ctx.now,
      status: 'CREATED',
      writeCount: 0,
      totalCount: source.table.size,
      table: source.table,
      timezoneOffset: offset,
      csvBom: source.csvBom ?? false,
      urlBase: `${ctx.baseUrl}${reporterPrefix}`,
      failPlanned: fault !== undefined,
      abort: new AbortController(),
    };
    if (options.async) {
      task.requestId = asyncRequestId(seed, n);
      task.requestTime = ctx.now;
      this.events.open(task.requestId, task.accountId);
    }
    this.tasks.set(task.taskId, task);
    const run = runReportTask(task, {
      rowsPerSecond: this.emulator.options.reportRowsPerSecond,
      directory: () => this.directory(),
      changed: (t) => this.emit(t),
    }).finally(() => this.running.delete(run));
    task.run = run;
    this.running.add(run);
    return task;
  }

  /** The account's task, or a 404 ErrorDto. */
  find(accountId: number, taskId: string): ReportTask {
    const task = this.tasks.get(taskId);
    if (!task || task.accountId !== accountId) {
      throw new ApiError(
        404,
        'reporter.not_found.report_task',
        `report generation task ${taskId} not found`,
        { reportGenerationTaskId: taskId },
      );
    }
    return task;
  }

  /** The account's tasks that are not deleted, oldest first. */
  list(accountId: number): ReportTask[] {
    return [...this.tasks.values()].filter((t) => t.accountId === accountId && t.status !== 'DELETED');
  }

  /** Marks a task DELETED, stops its run and removes its file; deleting twice is a no-op. */
  delete(task: ReportTask): void {
    if (task.status === 'DELETED') return;
    const wasRunning = !isFinished(task.status);
    task.abort.abort();
    task.status = 'DELETED';
    delete task.table;
    if (wasRunning) this.emit(task);
    const base = this.directoryPromise;
    if (!base) return;
    const removal = (task.run ?? Promise.resolve())
      .then(() => base)
      .then((dir) => rm(join(dir, task.taskId), { recursive: true, force: true }))
      .catch(() => {})
      .finally(() => this.running.delete(removal));
    this.running.add(removal);
  }

  private emit(task: ReportTask): void {
    if (task.requestId === undefined || task.requestTime === undefined) return;
    this.events.append({
      accountId: task.accountId,
      requestId: task.requestId,
      requestTime: task.requestTime,
      isOk: task.status !== 'FAILED',
      payload: taskDto(task),
      ...(task.status === 'FAILED' && task.error ? { error: task.error } : {}),
    });
  }

  /** The directory of this emulator's report files, created on first use. */
  private directory(): Promise<string> {
    this.directoryPromise ??= (async () => {
      const parent = this.emulator.options.filesDir ?? tmpdir();
      await mkdir(parent, { recursive: true });
      return mkdtemp(join(parent, 'reporter-emulator-reports-'));
    })();
    return this.directoryPromise;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.tasks.values()) task.abort.abort();
    this.events.close();
    await Promise.allSettled([...this.running]);
    // let the answered long polls reach their sockets before the server drops connections
    await new Promise((resolve) => setImmediate(resolve));
    const dir = await this.directoryPromise?.catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

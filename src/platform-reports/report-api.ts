// The report operations of the Reporter API over ReporterHttp: create (v1 async or legacy task), long-polled
// async events, task state, listing and deletion. Invariants: a create request is sent exactly once (its
// client has no automatic retries: the caller decides, see create-task.ts); every answer is validated.
import { EtlError } from '../errors.js';
import type { Generation, ReporterHttp } from '../platform/reporter/reporter-http.js';
import { type CreateRequest, createOperation } from './build-create-request.js';
import type { PlatformReportKind } from './report-kinds.js';
import {
  type AsyncEvent,
  asyncEventSchema,
  asyncTaskSchema,
  eventsAnswerSchema,
  parseAnswer,
  type ReportTaskDto,
  reportTaskSchema,
  taskListSchema,
} from './report-schemas.js';

export interface CreateAnswer {
  /** v1: the async request. */
  requestId?: string;
  requestTime?: number;
  /** legacy: the task, answered at once. */
  task?: ReportTaskDto;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export class ReportApi {
  /** `http` retries as configured; `createHttp` must not retry (a retried create could create twice). */
  constructor(
    readonly http: ReporterHttp,
    private readonly createHttp: ReporterHttp,
  ) {}

  get api(): Generation {
    return this.http.api;
  }

  async create(kind: PlatformReportKind, request: CreateRequest): Promise<CreateAnswer> {
    const { op, scope } = createOperation(kind, this.api);
    const what = `POST ${op}`;
    const answer = await this.createHttp.raw({
      method: 'POST',
      op,
      scope,
      query: request.query,
      ...(request.body === undefined ? {} : { body: request.body }),
    });
    if (this.api === 'legacy') return { task: parseAnswer(reportTaskSchema, answer.value, what) };
    if (answer.value === undefined) {
      // client-list answers 200 with no body and the request in headers
      const requestId = header(answer.headers, 'Z-Request-id');
      if (!requestId)
        throw new EtlError(
          'platform_report.bad_answer',
          `${what} answered no body and no Z-Request-id header`,
        );
      const time = Date.parse(header(answer.headers, 'Z-Request-time') ?? '');
      return { requestId, ...(Number.isNaN(time) ? {} : { requestTime: time }) };
    }
    const dto = parseAnswer(asyncTaskSchema, answer.value, what);
    return { requestId: dto.requestId, ...(dto.requestTime == null ? {} : { requestTime: dto.requestTime }) };
  }

  /**
   * One long poll of GET /api/v1/async/events for a request: waits up to `timeoutSeconds` for events after
   * `startTime`. Returns the events of THIS request only (others in the answer are dropped, unvalidated).
   */
  async events(
    requestId: string,
    timeoutSeconds: number,
    startTime: number | undefined,
  ): Promise<AsyncEvent[]> {
    const value = await this.http.json({
      method: 'GET',
      op: 'events',
      scope: 'async',
      query: { requestId, timeout: timeoutSeconds, startTime },
    });
    const answer = parseAnswer(eventsAnswerSchema, value, 'GET async/events');
    const mine: AsyncEvent[] = [];
    answer.response.forEach((item, n) => {
      if ((item as { requestId?: unknown } | null)?.requestId !== requestId) return;
      mine.push(parseAnswer(asyncEventSchema, item, `GET async/events (response[${n}])`));
    });
    return mine;
  }

  async getTask(taskId: string): Promise<ReportTaskDto> {
    const value = await this.http.json({ method: 'GET', op: `reports/tasks/${encodeURIComponent(taskId)}` });
    return parseAnswer(reportTaskSchema, value, 'GET reports/tasks/{taskId}');
  }

  async listTasks(): Promise<ReportTaskDto[]> {
    const value = await this.http.json({ method: 'GET', op: 'reports' });
    return parseAnswer(taskListSchema, value, 'GET reports').tasks;
  }

  async deleteTask(taskId: string): Promise<void> {
    await this.http.raw({ method: 'DELETE', op: `reports/tasks/${encodeURIComponent(taskId)}` });
  }

  async deleteCompleted(): Promise<void> {
    await this.http.raw({ method: 'DELETE', op: 'reports' });
  }

  async deleteAll(): Promise<void> {
    await this.http.raw({ method: 'DELETE', op: 'reports/all' });
  }
}

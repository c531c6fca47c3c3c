// platform_report_tasks through the warehouse: every report task the tool asks for, written before its
// create request is sent and updated as it moves. The warehouse is opened per operation (withWarehouse), so
// a long wait for the platform never holds the DuckDB file lock. Invariant: the token, headers and file
// URLs are never stored.
import type { UseWarehouse } from '../manage/use-warehouse.js';
import type { Generation } from '../platform/reporter/reporter-http.js';
import type { PlainRow, SqlParam } from '../warehouse/warehouse.js';
import type { CreateRequest } from './build-create-request.js';
import type { ReporterFilter } from './parse-report-filter.js';
import { PLATFORM_REPORT_SQL, TASK_COLUMNS, type TaskField } from './platform-report-sql.js';
import type { FileType, PlatformReportKind } from './report-kinds.js';

export type TaskStatus = 'creating' | 'pending' | 'completed' | 'failed' | 'expired' | 'deleted';

export interface TaskRecord {
  id: string;
  project: string;
  api: Generation;
  baseUrl: string;
  kind: PlatformReportKind;
  periodFrom: number;
  periodTo: number;
  filters: ReporterFilter[];
  fileType: FileType;
  request: CreateRequest;
  requestId: string | null;
  requestTime: number | null;
  taskId: string | null;
  status: TaskStatus;
  platformStatus: string | null;
  writeCount: number | null;
  totalCount: number | null;
  fileName: string | null;
  /** Where the file goes (decided at creation); it is there once status is completed. */
  filePath: string | null;
  fileRows: number | null;
  /** responseTime of the last async event applied (v1): the startTime of the next long poll. */
  lastEventTime: number | null;
  /** Platform task ids that existed before the create request (to recognise an unanswered create). */
  tasksBefore: string[] | null;
  replaces: string | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  /** The lease: the process (pid, host, boot id, start time: src/process/process-identity.ts) and session (ownerId)
   * waiting for the task, and its last beat. */
  ownerPid: number | null;
  ownerHost: string | null;
  ownerBootId: string | null;
  ownerStartTicks: number | null;
  ownerId: string | null;
  heartbeatAt: number | null;
  error: string | null;
}

/** The session taking a task's lease: its owner id and its process. */
export interface TaskOwner {
  ownerId: string;
  ownerPid: number;
  ownerHost: string;
  ownerBootId: string | null;
  ownerStartTicks: number | null;
}

export type TaskPatch = Partial<Omit<TaskRecord, 'id' | 'updatedAt'>>;

/** The owner fields of a task no process holds any more (it ended, failed or was let go). */
export const RELEASED_OWNER: Readonly<TaskPatch> = {
  ownerPid: null,
  ownerHost: null,
  ownerBootId: null,
  ownerStartTicks: null,
  ownerId: null,
  heartbeatAt: null,
};

/** The warehouse per step (src/manage/use-warehouse.ts). */
export type WithWarehouse = UseWarehouse;

export interface TaskScope {
  baseUrl: string;
  api: Generation;
  project: string;
}

const JSON_FIELDS = new Set<TaskField>(['filters', 'request']);
const TIME_FIELDS = new Set<TaskField>([
  'periodFrom',
  'periodTo',
  'requestTime',
  'lastEventTime',
  'createdAt',
  'updatedAt',
  'finishedAt',
  'heartbeatAt',
]);

function toParam(field: TaskField, value: unknown): SqlParam {
  if (value === undefined || value === null) return null;
  if (JSON_FIELDS.has(field)) return JSON.stringify(value);
  if (TIME_FIELDS.has(field)) return new Date(value as number);
  return value as SqlParam;
}

function fromRow(row: PlainRow): TaskRecord {
  const record: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(TASK_COLUMNS) as [TaskField, string][]) {
    const value = row[column] ?? null;
    record[field] = JSON_FIELDS.has(field) && typeof value === 'string' ? JSON.parse(value) : value;
  }
  return record as unknown as TaskRecord;
}

export class TaskStore {
  constructor(
    private readonly withWarehouse: WithWarehouse,
    private readonly now: () => number,
  ) {}

  async insert(record: Omit<TaskRecord, 'createdAt' | 'updatedAt'>): Promise<TaskRecord> {
    const t = this.now();
    const full: TaskRecord = { ...record, createdAt: t, updatedAt: t };
    const params: Record<string, SqlParam> = {};
    for (const [field, column] of Object.entries(TASK_COLUMNS) as [TaskField, string][])
      params[column] = toParam(field, full[field]);
    await this.withWarehouse((w) => w.query(PLATFORM_REPORT_SQL.insertTask, params));
    return full;
  }

  async update(id: string, patch: TaskPatch): Promise<void> {
    const params: Record<string, SqlParam> = { id };
    const columns: string[] = [];
    for (const [field, value] of Object.entries({ ...patch, updatedAt: this.now() }) as [
      TaskField,
      unknown,
    ][]) {
      if (value === undefined || field === 'id') continue;
      const column = TASK_COLUMNS[field];
      columns.push(column);
      params[column] = toParam(field, value);
    }
    await this.withWarehouse((w) => w.query(PLATFORM_REPORT_SQL.updateTask(columns), params));
  }

  /**
   * Takes the lease of an open task for `owner` unless another owner's heartbeat is fresher than `staleMs`
   * (an owner known dead, `deadOwnerId`, is taken over whatever its heartbeat); true when taken (or ours).
   */
  async claim(
    id: string,
    owner: TaskOwner,
    staleMs: number,
    deadOwnerId: string | null = null,
  ): Promise<boolean> {
    const t = this.now();
    const rows = await this.withWarehouse((w) =>
      w.query(PLATFORM_REPORT_SQL.claimTask, {
        id,
        owner_id: owner.ownerId,
        owner_pid: owner.ownerPid,
        owner_host: owner.ownerHost,
        owner_boot_id: owner.ownerBootId,
        owner_start_ticks: owner.ownerStartTicks,
        dead_owner_id: deadOwnerId,
        now: new Date(t),
        stale_before: new Date(t - staleMs),
      }),
    );
    return rows.length > 0;
  }

  /** Refreshes the heartbeat of a task this owner holds (one short UPDATE). */
  async beat(id: string, ownerId: string): Promise<void> {
    await this.withWarehouse((w) =>
      w.query(PLATFORM_REPORT_SQL.beatTask, { id, owner_id: ownerId, now: new Date(this.now()) }),
    );
  }

  /** Gives the lease of a task up, if this owner still holds it. */
  async release(id: string, ownerId: string): Promise<void> {
    await this.withWarehouse((w) =>
      w.query(PLATFORM_REPORT_SQL.releaseTask, { id, owner_id: ownerId, now: new Date(this.now()) }),
    );
  }

  async get(id: string): Promise<TaskRecord | undefined> {
    const rows = await this.withWarehouse((w) => w.query(PLATFORM_REPORT_SQL.selectTask, { id }));
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  /** Tasks not finished (creating, pending) of this platform and project, oldest first. */
  async listOpen(scope: TaskScope): Promise<TaskRecord[]> {
    const rows = await this.withWarehouse((w) =>
      w.query(PLATFORM_REPORT_SQL.selectOpenTasks, {
        base_url: scope.baseUrl,
        api: scope.api,
        project: scope.project,
      }),
    );
    return rows.map(fromRow);
  }

  /** The newest task records of this platform and project. */
  async list(scope: TaskScope, limit = 100): Promise<TaskRecord[]> {
    const rows = await this.withWarehouse((w) =>
      w.query(PLATFORM_REPORT_SQL.selectTasks, {
        base_url: scope.baseUrl,
        api: scope.api,
        project: scope.project,
        limit,
      }),
    );
    return rows.map(fromRow);
  }

  async recordedTaskIds(baseUrl: string): Promise<Set<string>> {
    const rows = await this.withWarehouse((w) =>
      w.query(PLATFORM_REPORT_SQL.selectRecordedTaskIds, { base_url: baseUrl }),
    );
    return new Set(rows.map((r) => String(r['task_id'])));
  }

  /** Records that these platform tasks were deleted; open ones become `deleted`. */
  async markDeleted(baseUrl: string, taskIds: readonly string[]): Promise<void> {
    if (taskIds.length === 0) return;
    await this.withWarehouse((w) =>
      w.query(PLATFORM_REPORT_SQL.markDeleted, {
        base_url: baseUrl,
        task_ids: taskIds,
        now: new Date(this.now()),
      }),
    );
  }

  /** The project's sync watermark (epoch ms), if it has one. */
  async watermark(project: string): Promise<number | undefined> {
    const rows = await this.withWarehouse((w) => w.query(PLATFORM_REPORT_SQL.selectWatermark, { project }));
    const t = Date.parse(String(rows[0]?.['value'] ?? ''));
    return Number.isNaN(t) ? undefined : t;
  }
}

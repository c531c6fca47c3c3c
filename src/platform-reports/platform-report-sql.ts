// Every SQL statement of the platform-reports module, in one place, so an analyst can read and run it in
// the DuckDB CLI: the platform_report_tasks bookkeeping and the warehouse side of --reconcile. Parameters
// are bound ($name), never concatenated; the only composed parts are column names from fixed lists here.

/** Columns of platform_report_tasks an update may set (TaskRecord field -> column). */
export const TASK_COLUMNS = {
  id: 'id',
  project: 'project',
  api: 'api',
  baseUrl: 'base_url',
  kind: 'kind',
  periodFrom: 'period_from',
  periodTo: 'period_to',
  filters: 'filters',
  fileType: 'file_type',
  request: 'request',
  requestId: 'request_id',
  requestTime: 'request_time',
  taskId: 'task_id',
  status: 'status',
  platformStatus: 'platform_status',
  writeCount: 'write_count',
  totalCount: 'total_count',
  fileName: 'file_name',
  filePath: 'file_path',
  fileRows: 'file_rows',
  lastEventTime: 'last_event_time',
  tasksBefore: 'tasks_before',
  replaces: 'replaces',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  finishedAt: 'finished_at',
  ownerPid: 'owner_pid',
  ownerHost: 'owner_host',
  ownerBootId: 'owner_boot_id',
  ownerStartTicks: 'owner_start_ticks',
  ownerId: 'owner_id',
  heartbeatAt: 'heartbeat_at',
  error: 'error',
} as const;
export type TaskField = keyof typeof TASK_COLUMNS;

const ALL = Object.values(TASK_COLUMNS);

export const PLATFORM_REPORT_SQL = {
  insertTask: `INSERT INTO platform_report_tasks (${ALL.join(', ')}) VALUES (${ALL.map((c) => `$${c}`).join(', ')})`,

  /** UPDATE of the given columns of one task record (names from TASK_COLUMNS only). */
  updateTask: (columns: readonly string[]): string =>
    `UPDATE platform_report_tasks SET ${columns.map((c) => `${c} = $${c}`).join(', ')} WHERE id = $id`,

  selectTask: 'SELECT * FROM platform_report_tasks WHERE id = $id',

  /**
   * Takes the lease of an open task when it is free (no owner, ours, an owner known dead: $dead_owner_id, or
   * a heartbeat older than $stale_before): one statement, so two processes never both take it. Answers the
   * row when taken.
   */
  claimTask: `UPDATE platform_report_tasks
    SET owner_id = $owner_id, owner_pid = $owner_pid, owner_host = $owner_host, owner_boot_id = $owner_boot_id,
        owner_start_ticks = $owner_start_ticks, heartbeat_at = $now, updated_at = $now
    WHERE id = $id AND status IN ('creating', 'pending')
      AND (owner_id IS NULL OR owner_id = $owner_id OR owner_id = $dead_owner_id OR heartbeat_at IS NULL
        OR heartbeat_at < $stale_before)
    RETURNING id`,

  /** The heartbeat of a task's lease, written only while this owner holds it. */
  beatTask: 'UPDATE platform_report_tasks SET heartbeat_at = $now WHERE id = $id AND owner_id = $owner_id',

  /** Gives the lease up (only while this owner still holds it). */
  releaseTask: `UPDATE platform_report_tasks
    SET owner_id = NULL, owner_pid = NULL, owner_host = NULL, owner_boot_id = NULL, owner_start_ticks = NULL,
        heartbeat_at = NULL, updated_at = $now
    WHERE id = $id AND owner_id = $owner_id`,

  /** Tasks of one platform and project that are not finished, oldest first. */
  selectOpenTasks: `SELECT * FROM platform_report_tasks
    WHERE base_url = $base_url AND api = $api AND project = $project AND status IN ('creating', 'pending')
    ORDER BY created_at, id`,

  /** The newest task records of one platform and project. */
  selectTasks: `SELECT * FROM platform_report_tasks
    WHERE base_url = $base_url AND api = $api AND project = $project
    ORDER BY created_at DESC, id DESC LIMIT $limit`,

  /** Task ids recorded for a platform (any project: one account can hold several). */
  selectRecordedTaskIds: `SELECT DISTINCT task_id FROM platform_report_tasks
    WHERE base_url = $base_url AND task_id IS NOT NULL`,

  /** After a deletion on the platform: the listed task ids are gone there; open ones will not finish. */
  markDeleted: `UPDATE platform_report_tasks
    SET platform_status = 'DELETED',
        status = CASE WHEN status IN ('creating', 'pending') THEN 'deleted' ELSE status END,
        finished_at = CASE WHEN status IN ('creating', 'pending') THEN $now ELSE finished_at END,
        updated_at = $now
    WHERE base_url = $base_url AND list_contains($task_ids, task_id)`,

  /** The newest sync watermark of a project (ISO text in etl_state). */
  selectWatermark: "SELECT value FROM etl_state WHERE project = $project AND key = 'watermark'",
} as const;

/** Warehouse ids a report should hold: messages by timestamp, sessions by start time, in [from, to). */
export const RECONCILE_SQL = {
  messages: `SELECT m.question_id AS id FROM messages m
    LEFT JOIN sessions s ON s.project = m.project AND s.session_id = m.session_id
    WHERE m.project = $project AND m."timestamp" >= $from AND m."timestamp" < $to`,
  sessions: `SELECT s.session_id AS id FROM sessions s
    WHERE s.project = $project AND s.start_time >= $from AND s.start_time < $to`,
} as const;

/** Warehouse columns the reconcilable filters compare (CHECKBOX filters, CONTAINS / NOT_CONTAINS). */
export const RECONCILE_FILTER_COLUMNS: Readonly<
  Record<string, { column: string; on: 'sessions' | 'messages' | 'both'; normalise?: boolean }>
> = {
  CHANNEL_TYPE: { column: "replace(lower(s.channel_type), '_', '')", on: 'both', normalise: true },
  BOT_ID: { column: 's.bot_id', on: 'both' },
  SESSION_RESULT: { column: 's.session_result', on: 'both' },
  NLP_CLASS: { column: 'm.nlp_class', on: 'messages' },
};

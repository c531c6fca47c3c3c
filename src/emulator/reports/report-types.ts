// The shapes of the emulator's report tasks: kinds of report, the vendor's status and type enums, settings
// and the task record with its wire form. Invariant: taskDto() emits only ReportGenerationTaskDto fields.
// message-reaction has no report type of its own in the vendor's enum: it is typed MESSAGES (reactions are
// per message), which is what a client listing tasks sees.
import type { ReportTable } from './report-table.js';

export const REPORT_STATUSES = ['CREATED', 'STARTED', 'STOPPED', 'COMPLETED', 'FAILED', 'DELETED'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_TYPES = [
  'MESSAGES',
  'SESSIONS',
  'CLIENTS',
  'TELEPHONY',
  'DAILY',
  'STATE_ROUTES',
  'CLIENTS_LIST',
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const REPORT_KINDS = [
  'sessions',
  'messages',
  'clients',
  'telephony',
  'daily',
  'client-list',
  'message-reaction',
] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_TYPE_OF: Readonly<Record<ReportKind, ReportType>> = {
  sessions: 'SESSIONS',
  messages: 'MESSAGES',
  clients: 'CLIENTS',
  telephony: 'TELEPHONY',
  daily: 'DAILY',
  'client-list': 'CLIENTS_LIST',
  'message-reaction': 'MESSAGES',
};

export type FileType = 'XLSX' | 'CSV';

export interface ReportSettings {
  fileType: FileType;
  withHeader: boolean;
  delimiter: string;
  dateTimeFormat: string;
}

export interface ErrorDto {
  error: string;
  message: string;
  args?: Record<string, unknown>;
}

export interface ReportTask {
  taskId: string;
  accountId: number;
  projectShortName: string;
  kind: ReportKind;
  reportType: ReportType;
  settings: ReportSettings;
  /** Emulator clock at creation (epoch ms). */
  creationTime: number;
  status: ReportStatus;
  writeCount: number;
  totalCount: number;
  fileName?: string;
  fileUrl?: string;
  /** v1 only: the async request that created the task. */
  requestId?: string;
  requestTime?: number;
  /** Why the task FAILED. */
  error?: ErrorDto;
  /** The rows selected at creation (rendered as of creationTime); dropped once the task ends. */
  table?: ReportTable;
  /** Timezone header at creation, minutes east of UTC. */
  timezoneOffset: number;
  /** A CSV file starts with a UTF-8 byte order mark (the emulator's report shape at creation). */
  csvBom: boolean;
  /** Absolute URL prefix of the reporter operations of the creating generation. */
  urlBase: string;
  /** The reportFail fault fired on creation. */
  failPlanned: boolean;
  /** Real time (Date.now) the file URL was issued. */
  completedAt?: number;
  filePath?: string;
  abort: AbortController;
  run?: Promise<void>;
}

export const isFinished = (status: ReportStatus): boolean =>
  status === 'COMPLETED' || status === 'FAILED' || status === 'DELETED' || status === 'STOPPED';

/** ReportGenerationTaskDto of a task, as of now. */
export function taskDto(task: ReportTask): Record<string, unknown> {
  const dto: Record<string, unknown> = {
    taskId: task.taskId,
    accountId: task.accountId,
    creationTime: new Date(task.creationTime).toISOString(),
    status: task.status,
    reportType: task.reportType,
    settings: { ...task.settings },
    projectShortName: task.projectShortName,
    writeCount: task.writeCount,
    totalCount: task.totalCount,
  };
  if (task.status === 'COMPLETED') {
    if (task.fileUrl !== undefined) dto['fileUrl'] = task.fileUrl;
    if (task.fileName !== undefined) dto['fileName'] = task.fileName;
  }
  return dto;
}

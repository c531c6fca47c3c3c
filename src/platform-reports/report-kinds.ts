// The kinds of report the platform builds itself, with what each takes: the create operation, the vendor's
// report type, the time filter its period becomes, and whether it can be reconciled with the warehouse.
// Invariant: one table describes every kind; the rest of the module never switches on a kind's name alone.
export const PLATFORM_REPORT_KINDS = [
  'sessions',
  'messages',
  'clients',
  'telephony',
  'daily',
  'client-list',
  'message-reaction',
] as const;
export type PlatformReportKind = (typeof PLATFORM_REPORT_KINDS)[number];

export type FileType = 'XLSX' | 'CSV';

export interface KindInfo {
  /** The vendor's ReportType of the task (message-reaction has none of its own: tasks list as MESSAGES). */
  reportType: string;
  /** The filter key the period becomes (filtered kinds), or how the period is sent otherwise. */
  period: 'SESSION_START_TIME' | 'MESSAGE_TIME' | 'CLIENT_LAST_ACTIVITY_TIME' | 'query' | 'date' | 'epoch';
  /** Only in the v1 API. */
  v1Only: boolean;
  /** The file's first column is an id the warehouse holds (questionId or sessionId). */
  reconcile?: 'messages' | 'sessions';
}

export const KIND_INFO: Readonly<Record<PlatformReportKind, KindInfo>> = {
  sessions: { reportType: 'SESSIONS', period: 'SESSION_START_TIME', v1Only: false, reconcile: 'sessions' },
  messages: { reportType: 'MESSAGES', period: 'MESSAGE_TIME', v1Only: false, reconcile: 'messages' },
  clients: { reportType: 'CLIENTS', period: 'CLIENT_LAST_ACTIVITY_TIME', v1Only: false },
  telephony: { reportType: 'TELEPHONY', period: 'query', v1Only: false },
  daily: { reportType: 'DAILY', period: 'date', v1Only: false, reconcile: 'messages' },
  'client-list': { reportType: 'CLIENTS_LIST', period: 'CLIENT_LAST_ACTIVITY_TIME', v1Only: false },
  'message-reaction': { reportType: 'MESSAGES', period: 'epoch', v1Only: true },
};

export function isPlatformReportKind(value: string): value is PlatformReportKind {
  return (PLATFORM_REPORT_KINDS as readonly string[]).includes(value);
}

// Labels people put on sessions and messages: bulk labeling (`BulkLabelingDto`) of many records by ids or
// by filters, and reading back which records carry a label. With comparisonType CONTAINS bulk labeling adds the labels and keeps the others: repeating it is harmless.
import { z } from 'zod';
import type { ReporterFilter } from './filters.js';
import { readAllPages } from './paging.js';
import { parseAnswer } from './parse-answer.js';
import type { ReporterHttp } from './reporter-http.js';

/** What bulk labeling does with `labels`: CONTAINS adds, NOT_CONTAINS removes, EXISTS sets exactly, NOT_EXISTS clears. */
export type BulkComparison = 'CONTAINS' | 'NOT_CONTAINS' | 'EXISTS' | 'NOT_EXISTS' | 'NOT_IMPORTANT';

/** `BulkLabelingDto`: objectIds (session ids or question ids) or filters select the records. */
export type BulkLabeling = {
  comparisonType: BulkComparison;
  labels: number[];
} & ({ objectIds: string[]; filters?: never } | { filters: ReporterFilter[]; objectIds?: never });

function bulkBody(request: BulkLabeling): Record<string, unknown> {
  return {
    comparisonType: request.comparisonType,
    labels: request.labels,
    ...(request.objectIds ? { objectIds: request.objectIds } : { filters: { filters: request.filters } }),
  };
}

/** A bulk labeling the platform took (2xx); `unreadable`: its answer could not be read (not sent again). */
export interface BulkLabeled {
  unreadable?: string;
}

export async function bulkLabelSessions(http: ReporterHttp, request: BulkLabeling): Promise<BulkLabeled> {
  const op = 'session-labels/sessions/bulk-labeling';
  const answer = await http.write({ method: 'POST', op, body: bulkBody(request) });
  return answer.unreadable === undefined ? {} : { unreadable: answer.unreadable };
}

export async function bulkLabelMessages(http: ReporterHttp, request: BulkLabeling): Promise<BulkLabeled> {
  const op = 'message/labels/logs/bulk-labeling';
  const answer = await http.write({ method: 'POST', op, body: bulkBody(request) });
  return answer.unreadable === undefined ? {} : { unreadable: answer.unreadable };
}

// reading labels back: the cheap check before a write (one filtered read per batch of ids)

const labelledSession = z.object({
  sessionId: z.string().min(1),
  labels: z
    .array(z.object({ id: z.number().int() }).loose())
    .nullish()
    .transform((v) => (v ?? []).map((l) => l.id)),
});
const labelledMessage = z.object({ questionId: z.string().min(1) });

const iso = (t: number) => new Date(t).toISOString();
const idsFilter = (ids: readonly string[]): ReporterFilter => ({
  key: 'SESSION_ID',
  type: 'TEXT',
  comparisonType: 'EQUALS',
  values: [...ids],
  isCaseSensitive: true,
});

/**
 * The label ids of the sessions with these ids that started within [from, to] (inclusive). A session absent
 * from `labels` does not exist on the platform, unless `complete` is false (the pages did not add up).
 */
export async function readSessionLabelIds(
  http: ReporterHttp,
  request: { sessionIds: readonly string[]; from: number; to: number; pageSize: number },
): Promise<{ labels: Map<string, number[]>; complete: boolean }> {
  const op = 'sessions/filter';
  const read = await readAllPages(http, {
    op,
    key: 'sessions',
    query: { needToReturnSessionLabels: true },
    body: {
      filters: [
        idsFilter(request.sessionIds),
        { key: 'SESSION_START_TIME', type: 'DATE_TIME_RANGE', from: iso(request.from), to: iso(request.to) },
      ],
    },
    pageSize: request.pageSize,
    idOf: (r) => (r as { sessionId?: string } | null)?.sessionId,
  });
  const labels = new Map<string, number[]>();
  for (const record of read.records) {
    const session = parseAnswer(op, labelledSession, record);
    labels.set(session.sessionId, session.labels);
  }
  return { labels, complete: read.complete };
}

/**
 * The question ids that carry `labelId`, among the messages of these sessions sent within [from, to]
 * (messages/filter has no question id filter: the sessions and the time bound narrow it).
 */
export async function readLabelledMessageIds(
  http: ReporterHttp,
  request: { sessionIds: readonly string[]; from: number; to: number; labelId: number; pageSize: number },
): Promise<{ questionIds: Set<string>; complete: boolean }> {
  const op = 'messages/filter';
  const read = await readAllPages(http, {
    op,
    key: 'messages',
    body: {
      filters: [
        idsFilter(request.sessionIds),
        { key: 'MESSAGE_TIME', type: 'DATE_TIME_RANGE', from: iso(request.from), to: iso(request.to) },
        {
          key: 'LOG_LABELS',
          type: 'CHECKBOX',
          comparisonType: 'CONTAINS',
          options: [String(request.labelId)],
        },
      ],
    },
    pageSize: request.pageSize,
    idOf: (r) => (r as { questionId?: string } | null)?.questionId,
  });
  const questionIds = new Set<string>();
  for (const record of read.records) questionIds.add(parseAnswer(op, labelledMessage, record).questionId);
  return { questionIds, complete: read.complete };
}

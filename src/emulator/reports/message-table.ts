// The rows of messages and daily reports: one row per message selected when the task was created, rendered
// (batch by batch) from the same wire record messages/filter answers, as of the creation clock, plus the
// delivery status. Invariant: column 1 is questionId, in selection order (newest first). Labels and comments
// edited while a task runs may show in rows written after the edit.
import type { ProjectData } from '../project-data.js';
import type { MessageRef } from '../query.js';
import {
  booleanColumn,
  clientName,
  dateTimeColumn,
  labelNames,
  lazyTable,
  numberColumn,
  type ReportTable,
  rowOf,
  textColumn,
} from './report-table.js';

const COLUMNS = [
  textColumn('questionId'),
  textColumn('sessionId'),
  dateTimeColumn('timestamp'),
  textColumn('channelType'),
  textColumn('botId'),
  textColumn('clientId'),
  textColumn('clientName'),
  textColumn('question'),
  textColumn('textAnswer'),
  textColumn('event'),
  textColumn('nlpClass'),
  textColumn('nlpState'),
  numberColumn('confidence'),
  booleanColumn('isLivechat'),
  textColumn('operator'),
  textColumn('status'),
  textColumn('labels'),
  textColumn('comment'),
  numberColumn('processingTime'),
  textColumn('exception'),
];

export function messagesTable(
  p: ProjectData,
  refs: readonly MessageRef[],
  now: number,
  sheet = 'Messages',
): ReportTable {
  return lazyTable(sheet, COLUMNS, refs, ({ i, k }) => {
    const record = p.extendedMessageRecord(i, k, now);
    const nlp = (record['nlpInfo'] ?? {}) as Record<string, unknown>;
    const operator = record['operatorInfo'] as { firstName?: string; lastName?: string } | undefined;
    const derived: Record<string, unknown> = {
      clientId: (record['client'] as { id?: string } | undefined)?.id,
      clientName: clientName(record['client']),
      nlpClass: nlp['nlpClass'],
      nlpState: nlp['nlpState'],
      confidence: nlp['confidence'],
      operator: operator ? clientName(operator) : undefined,
      status: p.statusAt(i, k, now),
      labels: labelNames(record['labels']),
    };
    return rowOf(COLUMNS, (name) => (name in derived ? derived[name] : record[name]));
  });
}

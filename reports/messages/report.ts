// The `messages` report: every message of the period, one row each, with its session's channel and client,
// written with the streaming writer (a month can hold millions: they continue on "Messages (2)", ...).
import { pickColumns } from '../../src/report/pick-columns.js';
import type { ColumnSpec, ReportDefinition } from '../../src/report/report-definition.js';

/** The sheet's columns (the time column's header gets the zone); the benchmark's exceljs floor writes the same. */
export const MESSAGES_COLUMNS: readonly ColumnSpec[] = [
  { key: 'timestamp', header: 'Time', format: 'datetime' },
  { key: 'project', header: 'Project', format: 'text', width: 14 },
  { key: 'question_id', header: 'Message ID', format: 'text', width: 38 },
  { key: 'session_id', header: 'Session ID', format: 'text', width: 38 },
  { key: 'channel', header: 'Channel', format: 'text', width: 12 },
  { key: 'client_id', header: 'Client ID', format: 'text', width: 20 },
  { key: 'question', header: 'Question', format: 'text', width: 50, wrap: true },
  { key: 'text_answer', header: 'Answer', format: 'text', width: 50, wrap: true },
  { key: 'event', header: 'Event', format: 'text', width: 12 },
  { key: 'nlp_class', header: 'NLP class', format: 'text', width: 24 },
  { key: 'nlp_state', header: 'Scenario state', format: 'text', width: 24 },
  { key: 'confidence', header: 'Confidence', format: 'decimal3' },
  { key: 'status', header: 'Delivery status', format: 'text', width: 15 },
  { key: 'is_livechat', header: 'Live chat', format: 'boolean' },
  { key: 'is_transfer', header: 'Transfer to agent', format: 'boolean', width: 10 },
  { key: 'operator_id', header: 'Agent ID', format: 'text', width: 12 },
  { key: 'processing_time', header: 'Processing time (ms)', format: 'integer' },
  { key: 'comment', header: 'Comment', format: 'text', width: 30, wrap: true },
  { key: 'exception', header: 'Exception', format: 'text', width: 20, wrap: true },
  { key: 'labels', header: 'Labels', format: 'text', width: 36, wrap: true },
];

export const messagesReport: ReportDefinition = {
  id: 'messages',
  title: 'Messages',
  description: 'every message of the period with its session’s channel and client, and its labels',
  mode: 'stream',
  async build(context) {
    const columns = MESSAGES_COLUMNS.map((c) =>
      c.key === 'timestamp' ? { ...c, header: `Time (${context.tz})` } : c,
    );
    return {
      sheets: [
        {
          name: 'Messages',
          columns,
          rows: pickColumns(context.streamSql('messages'), columns),
        },
      ],
    };
  },
};

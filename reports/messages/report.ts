// The `messages` report: every message of the period, one row each, with its session's channel and client,
// written with the streaming writer (a month can hold millions: they continue on "Messages (2)", ...); on
// paper, the ids are left out and the question and answer come first.
import { pickColumns } from '../../src/report/pick-columns.js';
import type { ColumnSpec, ReportDefinition } from '../../src/report/report-definition.js';

/**
 * The sheet's columns (the time column's header gets the zone); the benchmark's exceljs floor writes the same.
 * On paper (three pages across, the time repeated on each) the question and its answer come first after the
 * client, then how the bot read them, then how it went; a page's sparse columns (comment, exception, agent)
 * sit beside columns every row fills, so no page across is nearly blank. The message and session ids (UUIDs
 * no reader copies from paper) come last, in the workbook only.
 */
export const MESSAGES_COLUMNS: readonly ColumnSpec[] = [
  { key: 'timestamp', header: 'Time', format: 'datetime' },
  { key: 'project', header: 'Project', format: 'text', width: 14 },
  { key: 'channel', header: 'Channel', format: 'text', width: 12 },
  { key: 'client_id', header: 'Client ID', format: 'text', width: 22 },
  { key: 'question', header: 'Question', format: 'text', width: 40, wrap: true },
  { key: 'text_answer', header: 'Answer', format: 'text', width: 46, wrap: true },
  { key: 'nlp_class', header: 'NLP class', format: 'text', width: 22 },
  { key: 'nlp_state', header: 'Scenario state', format: 'text', width: 22 },
  { key: 'event', header: 'Event', format: 'text', width: 12 },
  { key: 'confidence', header: 'Confidence', format: 'decimal3' },
  { key: 'status', header: 'Delivery status', format: 'code', width: 15 },
  { key: 'operator_id', header: 'Agent ID', format: 'text', width: 12 },
  { key: 'labels', header: 'Labels', format: 'text', width: 30, wrap: true },
  { key: 'comment', header: 'Comment', format: 'text', width: 28, wrap: true },
  { key: 'exception', header: 'Exception', format: 'text', width: 22, wrap: true },
  { key: 'is_livechat', header: 'Live chat', format: 'boolean' },
  { key: 'is_transfer', header: 'Transfer to agent', format: 'boolean', width: 10 },
  { key: 'processing_time', header: 'Processing time (ms)', format: 'integer' },
  { key: 'question_id', header: 'Message ID', format: 'text', width: 38, print: false },
  { key: 'session_id', header: 'Session ID', format: 'text', width: 38, print: false },
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

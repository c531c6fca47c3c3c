// The `sessions` report: every session of the period, one row each, with its labels joined and one column
// per sessionData key found in the period ("data: city", ...); streamed, continued on "Sessions (2)" past
// Excel's row limit. On paper the session and bot ids are left out (they come last).
import { pickColumns } from '../../src/report/pick-columns.js';
import type { CellInput, ColumnSpec, ReportDefinition } from '../../src/report/report-definition.js';

/** The columns printed, before the sessionData keys'. */
const COLUMNS: ColumnSpec[] = [
  { key: 'start_time', header: 'Start time', format: 'datetime' },
  { key: 'project', header: 'Project', format: 'text', width: 14 },
  { key: 'channel', header: 'Channel', format: 'text', width: 12 },
  { key: 'client_id', header: 'Client ID', format: 'text', width: 22 },
  { key: 'client_name', header: 'Client name', format: 'text', width: 22 },
  { key: 'client_username', header: 'Username', format: 'text', width: 16 },
  { key: 'question_count', header: 'Messages', format: 'integer', width: 10 },
  { key: 'duration_ms', header: 'Duration', format: 'duration' },
  { key: 'transferred', header: 'Transferred to agent', format: 'boolean', width: 12 },
  { key: 'is_livechat', header: 'Live chat', format: 'boolean' },
  { key: 'session_result', header: 'Result', format: 'code', width: 14 },
  { key: 'first_question', header: 'First question', format: 'text', width: 40, wrap: true },
  { key: 'last_question', header: 'Last question', format: 'text', width: 40, wrap: true },
  { key: 'labels', header: 'Labels', format: 'text', width: 30, wrap: true },
];

/** Identifiers no reader copies from paper: last, after the sessionData keys, in the workbook only. */
const ID_COLUMNS: ColumnSpec[] = [
  { key: 'session_id', header: 'Session ID', format: 'text', width: 38, print: false },
  { key: 'bot_id', header: 'Bot ID', format: 'text', width: 40, print: false },
];

/** The header of a sessionData key's column. */
export const dataHeader = (key: string) => `data: ${key}`;

export const sessionsReport: ReportDefinition = {
  id: 'sessions',
  title: 'Sessions',
  description: 'every session of the period, one row each: sessionData keys as columns, labels joined',
  mode: 'stream',
  async build(context) {
    const keys = (await context.querySql('session-data-keys')).map((r) => String(r['key']));
    const columns: ColumnSpec[] = [
      ...COLUMNS.map((c) => (c.key === 'start_time' ? { ...c, header: `Start time (${context.tz})` } : c)),
      ...keys.map(
        (key): ColumnSpec => ({ key: `data:${key}`, header: dataHeader(key), format: 'text', width: 20 }),
      ),
      ...ID_COLUMNS,
    ];
    const fixed = [...COLUMNS, ...ID_COLUMNS, { key: 'session_data' }];
    const printed = COLUMNS.length;
    async function* rows(): AsyncGenerator<CellInput[][]> {
      for await (const chunk of pickColumns(context.streamSql('sessions'), fixed)) {
        yield chunk.map((row) => {
          const json = row[fixed.length - 1];
          const data = typeof json === 'string' ? (JSON.parse(json) as Record<string, CellInput>) : {};
          return [
            ...row.slice(0, printed),
            ...keys.map((key) => data[key] ?? null),
            ...row.slice(printed, fixed.length - 1),
          ];
        });
      }
    }
    return { sheets: [{ name: 'Sessions', columns, rows: rows() }] };
  },
};

// The first sheet of `summary`: the period and selection, then one KPI per row (Metric | Value), each value
// with its own format (count, percent, duration); an empty period says so in its first row.
import type { CellFormat, CellInput, SheetSource } from '../../src/report/report-definition.js';
import type { Distribution, StatsReport } from '../../src/stats/stats-report.js';

export const EMPTY_PERIOD_NOTE = 'No session and no message in this period';

export function kpiSheet(s: StatsReport): SheetSource {
  const t = s.totals;
  const rows: [string, CellInput, CellFormat][] = [];
  if (s.empty) rows.push(['Note', EMPTY_PERIOD_NOTE, 'text']);
  rows.push(
    [`Period from (${s.timeZone})`, instant(s.window.from), 'datetime'],
    [`Period to, exclusive (${s.timeZone})`, instant(s.window.to), 'datetime'],
    ['Projects', s.filters.projects.join(', '), 'text'],
    ['Sessions', t.sessions, 'integer'],
    ['Non-empty sessions', t.nonEmptySessions, 'integer'],
    ['Messages', t.messages, 'integer'],
    ['Unique clients', t.uniqueClients, 'integer'],
    ['New clients', t.newClients, 'integer'],
    ['Returning clients', t.returningClients, 'integer'],
    ['Sessions transferred to an agent', t.transferredSessions, 'integer'],
    ['Transfer share', t.transferShare, 'percent'],
    ...distribution('Messages per session', t.messagesPerSession, 'number'),
    ...distribution('Session duration', t.sessionDurationMs, 'duration'),
    ['Messages with an NLP class', s.intents.classified, 'integer'],
    [`Unrecognised (${s.intents.catchAllClass})`, s.intents.unrecognised, 'integer'],
    ['Unrecognised share', s.intents.unrecognisedShare, 'percent'],
    [`Report generated at (${s.timeZone})`, instant(s.generatedAt), 'datetime'],
  );
  return {
    name: 'Summary',
    columns: [
      { key: 'metric', header: 'Metric', format: 'text', width: 38 },
      { key: 'value', header: 'Value', format: 'text', width: 20 },
    ],
    rows: [rows.map(([metric, value]) => [metric, value])],
    rowFormats: { column: 1, formats: rows.map(([, , format]) => format) },
  };
}

function distribution(
  name: string,
  d: Distribution | null,
  format: CellFormat,
): [string, CellInput, CellFormat][] {
  return [
    [`${name}: mean`, d?.mean ?? null, format],
    [`${name}: median`, d?.p50 ?? null, format],
    [`${name}: 90th percentile`, d?.p90 ?? null, format],
    [`${name}: 99th percentile`, d?.p99 ?? null, format],
  ];
}

function instant(iso: string | null): number | null {
  return iso === null ? null : Date.parse(iso);
}

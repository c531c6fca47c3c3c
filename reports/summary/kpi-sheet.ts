// The Summary sheet of `summary`, after the scorecard: the period and selection, then one figure per row
// (Metric | Value), each value with its own format (count, percent, duration; a mean and its percentiles with
// the same decimals); "returning" says from when the warehouse knows clients, and is n/a when it holds nothing
// before the period. An empty period's says "No data for <period>" instead (the report is empty). A key/value
// list: no autofilter, values and their header right-aligned.

import type { Distribution, StatsReport } from '../../src/analysis/stats/stats-report.js';
import type { DataBasis } from '../../src/report/data-basis.js';
import { describePeriod, localDate } from '../../src/report/describe-period.js';
import { type Figure, figureSheet } from '../../src/report/figure-sheet.js';
import type { CellFormat, CellInput, SheetSource } from '../../src/report/report-definition.js';

export function kpiSheet(
  s: StatsReport,
  basis: DataBasis,
  period: { from: number; to: number },
): SheetSource {
  const t = s.totals;
  const rows: Figure[] = [];
  const known = basis.dataFrom === null ? null : localDate(basis.dataFrom, s.timeZone);
  // returning: seen before the period, which the warehouse can only say of what it synced
  const nothingBefore = basis.dataFrom === null || basis.dataFrom >= period.from;
  const footnotes = nothingBefore
    ? [
        `Returning clients: n/a, the warehouse holds nothing before the period${known === null ? '' : ` (its data starts ${known})`}.`,
      ]
    : [];
  rows.push(
    ['Period', describePeriod(period.from, period.to, s.timeZone), 'text'],
    ['Projects', s.filters.projects.join(', '), 'text'],
    ['Sessions', t.sessions, 'integer'],
    ['Non-empty sessions', t.nonEmptySessions, 'integer'],
    ['Messages', t.messages, 'integer'],
    ['Unique clients', t.uniqueClients, 'integer'],
    ['New clients', t.newClients, 'integer'],
    [
      nothingBefore ? 'Returning clients' : `Returning clients (known from ${known})`,
      nothingBefore ? 'n/a' : t.returningClients,
      'integer',
    ],
    ['Sessions transferred to an agent', t.transferredSessions, 'integer'],
    ['Transfer share', t.transferShare, 'percent'],
    ...distribution('Messages per session', t.messagesPerSession, 'number'),
    ...distribution('Session duration', t.sessionDurationMs, 'duration'),
    ['Messages with an NLP class', s.intents.classified, 'integer'],
    [`Unrecognised (${s.intents.catchAllClass})`, s.intents.unrecognised, 'integer'],
    ['Unrecognised share', s.intents.unrecognisedShare, 'percent'],
    [`Report generated at (${s.timeZone})`, instant(s.generatedAt), 'datetime'],
  );
  return figureSheet('Summary', rows, { nameHeader: 'Metric', footnotes });
}

function distribution(name: string, d: Distribution | null, format: CellFormat): Figure[] {
  // one precision for a figure's mean and percentiles: 6.00 beside 6.40 (as stats prints them), not 6 beside 6.4
  const shown = (v: number | undefined): [CellInput, CellFormat] => [v ?? null, format];
  return [
    [`${name}: mean`, ...shown(d?.mean)],
    [`${name}: median`, ...shown(d?.p50)],
    [`${name}: 90th percentile`, ...shown(d?.p90)],
    [`${name}: 99th percentile`, ...shown(d?.p99)],
  ];
}

function instant(iso: string | null): number | null {
  return iso === null ? null : Date.parse(iso);
}

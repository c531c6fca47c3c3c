// The `labels` report: session and message label breakdowns of the period from the statistics: totals per
// label (with the share of sessions / messages), and day by day as a table of days × labels (zeros shown,
// a Total column), in the report's time zone.

import type { StatsReport } from '../../src/analysis/stats/stats-report.js';
import { localDay } from '../../src/report/local-day.js';
import type {
  CellInput,
  ColumnSpec,
  ReportDefinition,
  SheetSource,
} from '../../src/report/report-definition.js';

interface LabelKey {
  project: string;
  labelId: number;
  header: string;
}

/** Days × labels: one row per period of the window, one column per label of the catalogue, then the total. */
function byDay(
  name: string,
  s: StatsReport,
  labels: LabelKey[],
  counts: { period: string; project: string; labelId: number; count: number }[],
): SheetSource {
  const index = new Map(labels.map((l, i) => [`${l.project}\u0000${l.labelId}`, i]));
  const perDay = new Map<string, number[]>(s.byPeriod.map((p) => [p.period, labels.map(() => 0)]));
  for (const c of counts) {
    const at = index.get(`${c.project}\u0000${c.labelId}`);
    const row = perDay.get(c.period);
    if (at !== undefined && row) row[at] = (row[at] ?? 0) + c.count;
  }
  const columns: ColumnSpec[] = [
    { key: 'day', header: 'Day', format: 'date' },
    ...labels.map((l, i): ColumnSpec => ({ key: `label${i}`, header: l.header, format: 'integer' })),
    { key: 'total', header: 'Total', format: 'integer' },
  ];
  const rows: CellInput[][] = s.empty
    ? []
    : [...perDay].map(([period, values]) => [localDay(period), ...values, values.reduce((a, b) => a + b, 0)]);
  return { name, columns, rows: [rows] };
}

export function labelSheets(s: StatsReport): SheetSource[] {
  const several = s.filters.projects.length > 1;
  const sessionLabels = s.sessionLabels.map((l) => ({
    project: l.project,
    labelId: l.labelId,
    header: `${l.label ?? `#${l.labelId}`}${several ? ` (${l.project})` : ''}`,
  }));
  const messageLabels = s.messageLabels.map((l) => ({
    project: l.project,
    labelId: l.labelId,
    header: `${l.group ? `${l.group} / ` : ''}${l.label ?? `#${l.labelId}`}${several ? ` (${l.project})` : ''}`,
  }));
  return [
    {
      name: 'Session labels',
      columns: [
        { key: 'project', header: 'Project', format: 'text' },
        { key: 'label', header: 'Label', format: 'text' },
        { key: 'labelId', header: 'Label ID', format: 'integer' },
        { key: 'count', header: 'Sessions', format: 'integer' },
        { key: 'share', header: 'Share of sessions', format: 'percent' },
      ],
      rows: [s.empty ? [] : s.sessionLabels.map((r) => [r.project, r.label, r.labelId, r.count, r.share])],
    },
    byDay('Session labels by day', s, sessionLabels, s.sessionLabelsByPeriod),
    {
      name: 'Message labels',
      columns: [
        { key: 'project', header: 'Project', format: 'text' },
        { key: 'group', header: 'Group', format: 'text' },
        { key: 'label', header: 'Label', format: 'text' },
        { key: 'labelId', header: 'Label ID', format: 'integer' },
        { key: 'count', header: 'Messages', format: 'integer' },
        { key: 'share', header: 'Share of messages', format: 'percent' },
      ],
      rows: [
        s.empty ? [] : s.messageLabels.map((r) => [r.project, r.group, r.label, r.labelId, r.count, r.share]),
      ],
    },
    byDay('Message labels by day', s, messageLabels, s.messageLabelsByPeriod),
  ];
}

export const labelsReport: ReportDefinition = {
  id: 'labels',
  title: 'Labels',
  description: 'session and message label breakdowns: totals per label and day by day',
  mode: 'memory',
  async build(context) {
    const stats = await context.stats();
    return { sheets: labelSheets(stats), empty: stats.empty };
  },
};

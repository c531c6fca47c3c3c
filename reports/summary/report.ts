// The `summary` report: the period's figures from the statistics (`computeStats`, the documented stats
// contract) laid out for reading and printing: the scorecard first (scorecard.ts: six figures against the
// previous period, the sessions chart, the top unhandled topics), the KPIs, three charts, then by day (by week
// past BY_WEEK_PAST_DAYS days, as `stats` does) and by day × channel with its transfers (both left out of a
// one-day summary, where the KPIs and Channels say the same), channels, labels, the delivery funnel, top
// intents, experiments. Small: written in memory with images, or (--format html) as one self-contained HTML
// page from the same sheets and charts.

import { readWarehouseNames } from '../../src/analysis/stats/compute-stats.js';
import type { StatsReport } from '../../src/analysis/stats/stats-report.js';
import { isCovered } from '../../src/report/data-basis.js';
import { previousPeriod } from '../../src/report/describe-period.js';
import type { ReportContext, ReportDefinition, SheetSource } from '../../src/report/report-definition.js';
import { kpiSheet } from './kpi-sheet.js';
import {
  byPeriodChannelSheet,
  byPeriodSheet,
  isOneDay,
  type PeriodBasis,
  sessionsChart,
  summaryPeriodUnit,
} from './period-tables.js';
import { scorecard } from './scorecard.js';
import {
  describeChannelsSheet,
  describeDeliveryFunnelSheet,
  describeExperimentsSheet,
  describeLabelsSheet,
  describeTopIntentsSheet,
  summaryCharts,
} from './tables.js';

export { BY_WEEK_PAST_DAYS, dayCategories, isOneDay, summaryPeriodUnit } from './period-tables.js';
export { summaryCharts } from './tables.js';

export function summarySheets(s: StatsReport, b: PeriodBasis): SheetSource[] {
  // one day: By day is the KPIs again and By day × channel the Channels sheet again
  const byPeriod = isOneDay(s) ? [] : [byPeriodSheet(s, b), byPeriodChannelSheet(s, b)];
  return [
    kpiSheet(s, b.basis, b),
    ...byPeriod,
    describeChannelsSheet(s),
    describeLabelsSheet(s),
    describeDeliveryFunnelSheet(s),
    describeTopIntentsSheet(s),
    describeExperimentsSheet(s),
  ];
}

/** The command that stores the unhandled run the scorecard and the unhandled report read. */
function unhandledCommand(context: ReportContext, every: boolean): string {
  const project = every ? '' : ` --project ${context.projects[0] ?? ''}`;
  return `reporter-etl unhandled ${context.periodOptions}${project}`;
}

export const summaryReport: ReportDefinition = {
  id: 'summary',
  title: 'Summary',
  description:
    'a scorecard against the previous period, KPIs with charts, by day (by week past 60 days) × channel with transfers, labels, delivery funnel, top intents, experiments',
  mode: 'memory',
  formats: ['xlsx', 'html'],
  async build(context) {
    const stats = await context.stats(summaryPeriodUnit(context.from, context.to));
    const basis = await context.basis();
    const b: PeriodBasis = { basis, from: context.from, to: context.to };
    const sheets = summarySheets(stats, b);
    // an empty period: every sheet, the KPIs first, says "No data for <period>" (the writer drops the rows)
    if (stats.empty) return { sheets, empty: true, noDataReason: 'no session and no message' };
    const hourly = isOneDay(stats) ? await context.stats('hour') : undefined;
    const before = previousPeriod(context.from, context.to, context.tz);
    const previous = isCovered(basis, before.from, before.to)
      ? await context.statsOf(before.from, before.to)
      : null;
    const all = (await readWarehouseNames(context.warehouse)).projects;
    const every = all.length > 0 && all.every((p) => context.projects.includes(p));
    const unhandled = await context.querySql('unhandled-top', { every });
    const cover = scorecard({
      stats,
      previous,
      period: b,
      previousPeriod: before,
      basis,
      chart: sessionsChart(stats, b, hourly),
      unhandled,
      unhandledCommand: unhandledCommand(context, every),
    });
    return { cover, sheets, charts: summaryCharts(stats), empty: false };
  },
};

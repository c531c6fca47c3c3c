// The `summary` report: the period's figures from the statistics (`computeStats`, the documented stats
// contract) laid out for reading and printing: KPIs, four charts (a one-day period's sessions by hour), then by
// day (by week past BY_WEEK_PAST_DAYS days, as `stats` does) and by day × channel with its transfers (both left
// out of a one-day summary, where the KPIs and Channels say the same), channels, labels, the delivery funnel,
// top intents, experiments. Small: written in memory with images, or (--format html) as one self-contained HTML
// page from the same sheets and charts.

import type { StatsReport } from '../../src/analysis/stats/stats-report.js';
import { localDay } from '../../src/report/local-day.js';
import type {
  ChartSpec,
  ColumnSpec,
  ReportDefinition,
  SheetSource,
} from '../../src/report/report-definition.js';
import { kpiSheet } from './kpi-sheet.js';

/**
 * Past this many days the summary lists weeks, not days: the rule of `stats` (a text table of at most 60
 * periods), and what keeps a 90-day summary to a few printed pages.
 */
export const BY_WEEK_PAST_DAYS = 60;

const DAY_MS = 86_400_000;

/** The unit of the summary's period tables: day, or week for a period longer than BY_WEEK_PAST_DAYS days. */
export function summaryPeriodUnit(from: number, to: number): 'day' | 'week' {
  return (to - from) / DAY_MS > BY_WEEK_PAST_DAYS ? 'week' : 'day';
}

const col = (key: string, header: string, format: ColumnSpec['format'], width?: number): ColumnSpec =>
  width === undefined ? { key, header, format } : { key, header, format, width };

export function summarySheets(s: StatsReport): SheetSource[] {
  return [kpiSheet(s), ...tableSheets(s)];
}

function tableSheets(s: StatsReport): SheetSource[] {
  // one day: By day is the KPIs again and By day × channel the Channels sheet again
  const byPeriod = isOneDay(s) ? [] : [describeByDaySheet(s), describeByDayChannelSheet(s)];
  return [
    ...byPeriod,
    describeChannelsSheet(s),
    describeLabelsSheet(s),
    describeDeliveryFunnelSheet(s),
    describeTopIntentsSheet(s),
    describeExperimentsSheet(s),
  ];
}

/** The first column of a table by period: a day (a date cell), or an ISO week (2026-W44, text). */
function periodColumn(s: StatsReport): ColumnSpec {
  return s.period === 'week' ? col('week', 'Week', 'text') : col('day', 'Day', 'date');
}

function periodCell(s: StatsReport, period: string): string | number {
  return s.period === 'week' ? period : localDay(period);
}

/** Sessions, messages, clients and transfers per day (per week for a long period). */
function describeByDaySheet(s: StatsReport): SheetSource {
  return {
    name: s.period === 'week' ? 'By week' : 'By day',
    columns: [
      periodColumn(s),
      col('sessions', 'Sessions', 'integer'),
      col('messages', 'Messages', 'integer'),
      col('uniqueClients', 'Unique clients', 'integer'),
      col('transferredSessions', 'Transferred sessions', 'integer'),
    ],
    rows: [
      s.byPeriod.map((r) => [
        periodCell(s, r.period),
        r.sessions,
        r.messages,
        r.uniqueClients,
        r.transferredSessions,
      ]),
    ],
  };
}

/** Sessions, messages, clients, transfers and their share per day (or week) and channel. */
function describeByDayChannelSheet(s: StatsReport): SheetSource {
  return {
    name: s.period === 'week' ? 'By week × channel' : 'By day × channel',
    columns: [
      periodColumn(s),
      col('channel', 'Channel', 'text'),
      col('sessions', 'Sessions', 'integer'),
      col('messages', 'Messages', 'integer'),
      col('uniqueClients', 'Unique clients', 'integer'),
      col('transferredSessions', 'Transferred sessions', 'integer'),
      col('transferShare', 'Transfer share', 'percent'),
    ],
    rows: [
      s.byPeriodChannel.map((r) => [
        periodCell(s, r.period),
        r.channel ?? '(session not synced)',
        r.sessions,
        r.messages,
        r.uniqueClients,
        r.transferredSessions,
        r.sessions > 0 ? r.transferredSessions / r.sessions : null,
      ]),
    ],
  };
}

/** The period per channel, with its transfer share. */
function describeChannelsSheet(s: StatsReport): SheetSource {
  return {
    name: 'Channels',
    columns: [
      col('channel', 'Channel', 'text'),
      col('sessions', 'Sessions', 'integer'),
      col('nonEmptySessions', 'Non-empty sessions', 'integer'),
      col('messages', 'Messages', 'integer'),
      col('uniqueClients', 'Unique clients', 'integer'),
      col('transferredSessions', 'Transferred sessions', 'integer'),
      col('transferShare', 'Transfer share', 'percent'),
    ],
    rows: [
      s.byChannel.map((r) => [
        r.channel ?? '(session not synced)',
        r.sessions,
        r.nonEmptySessions,
        r.messages,
        r.uniqueClients,
        r.transferredSessions,
        r.transferShare,
      ]),
    ],
  };
}

/**
 * The session and the message labels in one table (one printed page, not two): a row per label, its kind,
 * the sessions or messages it marks and their share of all sessions or messages.
 */
function describeLabelsSheet(s: StatsReport): SheetSource {
  return {
    name: 'Labels',
    columns: [
      col('kind', 'Kind', 'text'),
      col('project', 'Project', 'text'),
      col('group', 'Group', 'text'),
      col('label', 'Label', 'text'),
      col('labelId', 'Label ID', 'integer'),
      col('count', 'Sessions or messages', 'integer'),
      col('share', 'Share of sessions or messages', 'percent'),
    ],
    rows: [
      [
        ...s.sessionLabels.map((r) => ['session', r.project, null, r.label, r.labelId, r.count, r.share]),
        ...s.messageLabels.map((r) => ['message', r.project, r.group, r.label, r.labelId, r.count, r.share]),
      ],
    ],
  };
}

/** Messages per channel by delivery status: counts, rates; time to read n/a (not measured). */
function describeDeliveryFunnelSheet(s: StatsReport): SheetSource {
  return {
    name: 'Delivery funnel',
    columns: [
      col('channel', 'Channel', 'text'),
      col('messages', 'Messages', 'integer'),
      col('withStatus', 'With a status', 'integer'),
      col('noStatus', 'No status', 'integer'),
      col('sent', 'Sent', 'integer'),
      col('delivered', 'Delivered', 'integer'),
      col('read', 'Read', 'integer'),
      col('notSent', 'Not sent', 'integer'),
      col('notDelivered', 'Not delivered', 'integer'),
      col('other', 'Other status', 'integer'),
      col('unexpected', 'Unexpected status', 'integer'),
      col('deliveredRate', 'Delivered rate', 'percent'),
      col('readRate', 'Read rate', 'percent'),
      col('notSentRate', 'Not sent rate', 'percent'),
      col('notDeliveredRate', 'Not delivered rate', 'percent'),
      col('timeToRead', 'Time to read', 'text'),
    ],
    rows: [
      s.deliveryFunnel.map((r) => [
        r.channel,
        r.messages,
        r.withStatus,
        r.noStatus,
        r.sent,
        r.delivered,
        r.read,
        r.notSent,
        r.notDelivered,
        r.other,
        r.unexpected,
        r.deliveredRate,
        r.readRate,
        r.notSentRate,
        r.notDeliveredRate,
        // not measured (no API gives a status's time): said, not left as 0 or blank
        r.read === null ? null : 'n/a',
      ]),
    ],
  };
}

/** The most frequent NLP classes. */
function describeTopIntentsSheet(s: StatsReport): SheetSource {
  return {
    name: 'Top intents',
    columns: [
      col('nlpClass', 'NLP class', 'text'),
      col('messages', 'Messages', 'integer'),
      col('share', 'Share of classified', 'percent'),
      col('meanConfidence', 'Mean confidence', 'decimal3'),
    ],
    rows: [s.intents.top.map((r) => [r.nlpClass, r.messages, r.share, r.meanConfidence])],
  };
}

/** Each experiment branch: sessions, messages per session, transfers. */
function describeExperimentsSheet(s: StatsReport): SheetSource {
  return {
    name: 'Experiments',
    columns: [
      col('project', 'Project', 'text'),
      col('experiment', 'Experiment', 'text'),
      col('status', 'Status', 'text'),
      col('branch', 'Branch', 'text'),
      col('sessions', 'Sessions', 'integer'),
      col('messagesPerSession', 'Messages per session', 'number'),
      col('transferredSessions', 'Transferred sessions', 'integer'),
      col('transferRate', 'Transfer rate', 'percent'),
    ],
    rows: [
      s.experiments.map((r) => [
        r.project,
        r.experiment,
        r.status,
        r.branch,
        r.sessions,
        r.messagesPerSession,
        r.transferredSessions,
        r.transferRate,
      ]),
    ],
  };
}

/** A one-day period: its sessions per day would be a single dot, so the summary charts them by hour. */
export function isOneDay(s: StatsReport): boolean {
  return s.period === 'day' && s.byPeriod.length === 1;
}

/** Day labels of a time axis: month-day within one year, the whole date when the days span several years. */
export function dayCategories(days: readonly string[]): string[] {
  const years = new Set(days.map((d) => d.slice(0, 4)));
  return years.size > 1 ? [...days] : days.map((d) => d.slice(5));
}

/**
 * The summary's four charts; `hourly` (the same statistics by hour, given for a one-day period) makes the
 * first one sessions per hour instead of per day.
 */
export function summaryCharts(s: StatsReport, hourly?: StatsReport): ChartSpec[] {
  if (s.empty) return [];
  const topLabels = s.sessionLabels.filter((r) => r.count > 0).slice(0, 10);
  const overTime: ChartSpec = hourly
    ? {
        title: `Sessions per hour, ${s.byPeriod[0]?.period ?? ''} (${s.timeZone})`,
        kind: 'bar',
        // 2026-11-20T13:00 → 13:00
        categories: hourly.byPeriod.map((r) => r.period.slice(11)),
        categoryAxis: `Hour (${s.timeZone})`,
        valueAxis: { title: 'Sessions' },
        series: [{ name: 'Sessions', values: hourly.byPeriod.map((r) => r.sessions) }],
      }
    : {
        title: `Sessions per ${s.period} (${s.timeZone})`,
        kind: 'line',
        categories:
          s.period === 'day'
            ? dayCategories(s.byPeriod.map((r) => r.period))
            : s.byPeriod.map((r) => r.period),
        categoryAxis: `${s.period === 'day' ? 'Day' : 'Week'} (${s.timeZone})`,
        valueAxis: { title: 'Sessions' },
        series: [{ name: 'Sessions', values: s.byPeriod.map((r) => r.sessions) }],
      };
  return [
    overTime,
    {
      title: 'Channel mix: sessions by channel',
      kind: 'bar',
      categories: s.byChannel.map((r) => r.channel ?? '(not synced)'),
      categoryAxis: 'Channel',
      valueAxis: { title: 'Sessions' },
      series: [{ name: 'Sessions', values: s.byChannel.map((r) => r.sessions) }],
    },
    {
      title: 'Delivery funnel: messages by channel',
      kind: 'bar',
      categories: s.deliveryFunnel.map((r) => r.channel),
      categoryAxis: 'Channel',
      valueAxis: { title: 'Messages' },
      series: [
        { name: 'With a status', values: s.deliveryFunnel.map((r) => r.withStatus) },
        { name: 'Delivered or read', values: s.deliveryFunnel.map((r) => r.delivered + (r.read ?? 0)) },
        {
          name: 'Read',
          values: s.deliveryFunnel.map((r) => r.read ?? 0),
          // a channel that reports no read receipts (telegram): the sheet leaves Read empty
          notApplicable: s.deliveryFunnel.map((r) => r.read === null),
        },
      ],
    },
    {
      title: 'Top session labels',
      kind: 'hbar',
      // several projects: each bar names its project (two projects' "Успешно" are two labels, not one twice)
      categories: topLabels.map(
        (r) => `${r.label ?? `#${r.labelId}`}${s.filters.projects.length > 1 ? ` (${r.project})` : ''}`,
      ),
      categoryAxis: 'Session label',
      valueAxis: { title: 'Sessions' },
      series: [{ name: 'Sessions', values: topLabels.map((r) => r.count) }],
    },
  ];
}

export const summaryReport: ReportDefinition = {
  id: 'summary',
  title: 'Summary',
  description:
    'KPIs of the period with charts, by day (by week past 60 days) × channel with transfers, labels, delivery funnel, top intents, experiments',
  mode: 'memory',
  formats: ['xlsx', 'html'],
  async build(context) {
    const stats = await context.stats(summaryPeriodUnit(context.from, context.to));
    const hourly = !stats.empty && isOneDay(stats) ? await context.stats('hour') : undefined;
    // an empty period: every sheet, the KPIs first, says "No data for <period>" (the writer drops the rows)
    return {
      sheets: summarySheets(stats),
      charts: summaryCharts(stats, hourly),
      empty: stats.empty,
      noDataReason: 'no session and no message',
    };
  },
};

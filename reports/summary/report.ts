// The `summary` report: the period's figures from the statistics (`computeStats`, the documented stats
// contract) laid out for reading: KPIs, four charts (a one-day period's sessions by hour), then by day, by day ×
// channel, channels, labels, the delivery funnel, top intents, experiments and transfers. Small: written in
// memory with images, or (--format html) as one self-contained HTML page from the same sheets and charts.
import { localDay } from '../../src/report/local-day.js';
import type {
  ChartSpec,
  ColumnSpec,
  ReportDefinition,
  SheetSource,
} from '../../src/report/report-definition.js';
import type { StatsReport } from '../../src/stats/stats-report.js';
import { kpiSheet } from './kpi-sheet.js';

const col = (key: string, header: string, format: ColumnSpec['format'], width?: number): ColumnSpec =>
  width === undefined ? { key, header, format } : { key, header, format, width };

export function summarySheets(s: StatsReport): SheetSource[] {
  return [kpiSheet(s), ...tableSheets(s)];
}

function tableSheets(s: StatsReport): SheetSource[] {
  return [
    describeByDaySheet(s),
    describeByDayChannelSheet(s),
    describeChannelsSheet(s),
    describeSessionLabelsSheet(s),
    describeMessageLabelsSheet(s),
    describeDeliveryFunnelSheet(s),
    describeTopIntentsSheet(s),
    describeExperimentsSheet(s),
    describeTransfersSheet(s),
  ];
}

/** Sessions, messages, clients and transfers per day. */
function describeByDaySheet(s: StatsReport): SheetSource {
  return {
    name: 'By day',
    columns: [
      col('day', 'Day', 'date'),
      col('sessions', 'Sessions', 'integer'),
      col('messages', 'Messages', 'integer'),
      col('uniqueClients', 'Unique clients', 'integer'),
      col('transferredSessions', 'Transferred sessions', 'integer'),
    ],
    rows: [
      s.byPeriod.map((r) => [
        localDay(r.period),
        r.sessions,
        r.messages,
        r.uniqueClients,
        r.transferredSessions,
      ]),
    ],
  };
}

/** Sessions, messages, clients and transfers per day and channel. */
function describeByDayChannelSheet(s: StatsReport): SheetSource {
  return {
    name: 'By day × channel',
    columns: [
      col('day', 'Day', 'date'),
      col('channel', 'Channel', 'text'),
      col('sessions', 'Sessions', 'integer'),
      col('messages', 'Messages', 'integer'),
      col('uniqueClients', 'Unique clients', 'integer'),
      col('transferredSessions', 'Transferred sessions', 'integer'),
    ],
    rows: [
      s.byPeriodChannel.map((r) => [
        localDay(r.period),
        r.channel ?? '(session not synced)',
        r.sessions,
        r.messages,
        r.uniqueClients,
        r.transferredSessions,
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

/** Sessions per session label. */
function describeSessionLabelsSheet(s: StatsReport): SheetSource {
  return {
    name: 'Session labels',
    columns: [
      col('project', 'Project', 'text'),
      col('label', 'Label', 'text'),
      col('labelId', 'Label ID', 'integer'),
      col('count', 'Sessions', 'integer'),
      col('share', 'Share of sessions', 'percent'),
    ],
    rows: [s.sessionLabels.map((r) => [r.project, r.label, r.labelId, r.count, r.share])],
  };
}

/** Messages per message label, by group. */
function describeMessageLabelsSheet(s: StatsReport): SheetSource {
  return {
    name: 'Message labels',
    columns: [
      col('project', 'Project', 'text'),
      col('group', 'Group', 'text'),
      col('label', 'Label', 'text'),
      col('labelId', 'Label ID', 'integer'),
      col('count', 'Messages', 'integer'),
      col('share', 'Share of messages', 'percent'),
    ],
    rows: [s.messageLabels.map((r) => [r.project, r.group, r.label, r.labelId, r.count, r.share])],
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

/** Transferred sessions per day and channel (days with sessions). */
function describeTransfersSheet(s: StatsReport): SheetSource {
  return {
    name: 'Transfers',
    columns: [
      col('day', 'Day', 'date'),
      col('channel', 'Channel', 'text'),
      col('sessions', 'Sessions', 'integer'),
      col('transferredSessions', 'Transferred sessions', 'integer'),
      col('transferShare', 'Transfer share', 'percent'),
    ],
    rows: [
      s.byPeriodChannel
        .filter((r) => r.sessions > 0)
        .map((r) => [
          localDay(r.period),
          r.channel ?? '(session not synced)',
          r.sessions,
          r.transferredSessions,
          r.transferredSessions / r.sessions,
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
        series: [{ name: 'Sessions', values: hourly.byPeriod.map((r) => r.sessions) }],
      }
    : {
        title: `Sessions per day (${s.timeZone})`,
        kind: 'line',
        categories: dayCategories(s.byPeriod.map((r) => r.period)),
        series: [{ name: 'Sessions', values: s.byPeriod.map((r) => r.sessions) }],
      };
  return [
    overTime,
    {
      title: 'Channel mix: sessions by channel',
      kind: 'bar',
      categories: s.byChannel.map((r) => r.channel ?? '(not synced)'),
      series: [{ name: 'Sessions', values: s.byChannel.map((r) => r.sessions) }],
    },
    {
      title: 'Delivery funnel: messages by channel',
      kind: 'bar',
      categories: s.deliveryFunnel.map((r) => r.channel),
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
      categories: topLabels.map((r) => r.label ?? `#${r.labelId}`),
      series: [{ name: 'Sessions', values: topLabels.map((r) => r.count) }],
    },
  ];
}

export const summaryReport: ReportDefinition = {
  id: 'summary',
  title: 'Summary',
  description:
    'KPIs of the period with charts, by day × channel, labels, delivery funnel, top intents, experiments, transfers',
  mode: 'memory',
  formats: ['xlsx', 'html'],
  async build(context) {
    const stats = await context.stats();
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

// The summary's tables besides its figures over time: channels, the session and message labels in one
// table, the delivery funnel (what each column counts said in its header; n/a where a channel has no such
// status, with a footnote; the time to read, measured nowhere, left out with one), top intents, experiments;
// and the charts of the Charts sheet: channel mix, delivery funnel, top session labels.
import type { StatsReport } from '../../src/analysis/stats/stats-report.js';
import type { ChartSpec, ColumnSpec, SheetSource } from '../../src/report/report-definition.js';

const col = (key: string, header: string, format: ColumnSpec['format'], width?: number): ColumnSpec =>
  width === undefined ? { key, header, format } : { key, header, format, width };

/** The period per channel, with its transfer share. */
export function describeChannelsSheet(s: StatsReport): SheetSource {
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
export function describeLabelsSheet(s: StatsReport): SheetSource {
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

/**
 * Messages per channel by their latest delivery status, and what share of the messages with a status were
 * delivered or read; each header says what it counts. A status a channel does not report (SENT on viber, READ
 * on telegram) is n/a, with a footnote; the time to read is measured nowhere (no API gives a status's time).
 */
export function describeDeliveryFunnelSheet(s: StatsReport): SheetSource {
  const noSent = 'the channel reports no SENT status (viber)';
  const noRead = 'the channel reports no read receipts (telegram)';
  const na = (column: ColumnSpec, reason: string): ColumnSpec => ({ ...column, notApplicable: reason });
  return {
    name: 'Delivery funnel',
    columns: [
      col('channel', 'Channel', 'text'),
      col('messages', 'Messages', 'integer'),
      col('withStatus', 'With a status', 'integer'),
      col('noStatus', 'No status', 'integer'),
      na(col('sent', 'Latest status: sent', 'integer'), noSent),
      col('delivered', 'Latest status: delivered', 'integer'),
      na(col('read', 'Latest status: read', 'integer'), noRead),
      col('deliveredOrRead', 'Delivered or read', 'integer'),
      col('notSent', 'Latest status: not sent', 'integer'),
      col('notDelivered', 'Latest status: not delivered', 'integer'),
      col('other', 'Other status', 'integer'),
      col('unexpected', 'Unexpected status', 'integer'),
      na(
        col('deliveredRate', 'Delivered or read, share of with a status', 'percent'),
        'no message with a status',
      ),
      na(col('readRate', 'Read, share of delivered or read', 'percent'), `${noRead}, or none was delivered`),
      col('notSentRate', 'Not sent, share of with a status', 'percent'),
      col('notDeliveredRate', 'Not delivered, share of with a status', 'percent'),
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
        r.delivered + (r.read ?? 0),
        r.notSent,
        r.notDelivered,
        r.other,
        r.unexpected,
        r.deliveredRate,
        r.readRate,
        r.notSentRate,
        r.notDeliveredRate,
      ]),
    ],
    footnotes: [
      "Latest status: the message's latest delivery status as synced; Unexpected: a status the channel should not send.",
      'The time to read is not shown: no API gives the time of a status change (see the statistics documentation).',
    ],
  };
}

/** The share of the period's messages with a status that were delivered or read, over every status channel. */
export function deliveryShare(s: StatsReport): number | null {
  const withStatus = s.deliveryFunnel.reduce((sum, r) => sum + r.withStatus, 0);
  const delivered = s.deliveryFunnel.reduce((sum, r) => sum + r.delivered + (r.read ?? 0), 0);
  return withStatus > 0 ? delivered / withStatus : null;
}

/** The most frequent NLP classes. */
export function describeTopIntentsSheet(s: StatsReport): SheetSource {
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
export function describeExperimentsSheet(s: StatsReport): SheetSource {
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

/** The Charts sheet: channel mix, the delivery funnel per channel, the top ten session labels. */
export function summaryCharts(s: StatsReport): ChartSpec[] {
  if (s.empty) return [];
  const topLabels = s.sessionLabels.filter((r) => r.count > 0).slice(0, 10);
  return [
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

// The summary's figures over time: By day (By week past BY_WEEK_PAST_DAYS days) and By day × channel, and the
// sessions chart (per hour for one day, per day, per week). A week is named by its dates; a period the synced
// data covers only in part says so ("6 of 7 days", "partial: 14:05 – 24:00") and is charted apart; one with
// nothing synced has no figures (n/a, with why), never zeros.
import type { PeriodRow, StatsReport } from '../../src/analysis/stats/stats-report.js';
import { type DataBasis, dataFromText } from '../../src/report/data-basis.js';
import { localDate } from '../../src/report/describe-period.js';
import { localDay } from '../../src/report/local-day.js';
import type { CellInput, ChartSpec, ColumnSpec, SheetSource } from '../../src/report/report-definition.js';
import { dayPart, isWhole, type PeriodPart, periodParts, weekLabel } from './period-coverage.js';

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

/** What the summary's period tables and chart are drawn from. */
export interface PeriodBasis {
  basis: DataBasis;
  from: number;
  to: number;
}

const col = (key: string, header: string, format: ColumnSpec['format']): ColumnSpec => ({
  key,
  header,
  format,
});

/** Why a period's figures are n/a: nothing of it is synced. */
function notSynced(b: PeriodBasis): string {
  const from = dataFromText(b.basis);
  return from === null ? 'nothing is synced' : `not synced: the warehouse holds data from ${from}`;
}

/** The first columns of a table by period: the day (and what part of it is synced) or the week by its dates. */
function periodColumns(s: StatsReport, parts: readonly PeriodPart[]): ColumnSpec[] {
  if (s.period === 'week') return [col('week', 'Week', 'text')];
  const partial = parts.some((p) => !isWhole(p));
  return partial ? [col('day', 'Day', 'date'), col('synced', 'Synced', 'text')] : [col('day', 'Day', 'date')];
}

function periodCells(s: StatsReport, r: PeriodRow, part: PeriodPart, withPart: boolean): CellInput[] {
  if (s.period === 'week') return [weekLabel(part, s.timeZone)];
  return withPart ? [localDay(r.period), dayPart(part, s.timeZone)] : [localDay(r.period)];
}

/** Sessions, messages, clients and transfers per day (per week for a long period); n/a where nothing is synced. */
export function byPeriodSheet(s: StatsReport, b: PeriodBasis): SheetSource {
  const parts = periodParts(s, s.byPeriod, b.basis, b);
  const first = periodColumns(s, parts);
  const na = notSynced(b);
  const figure = (key: string, header: string): ColumnSpec => ({
    ...col(key, header, 'integer'),
    notApplicable: na,
  });
  return {
    name: s.period === 'week' ? 'By week' : 'By day',
    columns: [
      ...first,
      figure('sessions', 'Sessions'),
      figure('messages', 'Messages'),
      figure('uniqueClients', 'Unique clients'),
      figure('transferredSessions', 'Transferred sessions'),
    ],
    rows: [
      s.byPeriod.map((r, i) => {
        const part = parts[i]!;
        const figures = [r.sessions, r.messages, r.uniqueClients, r.transferredSessions];
        return [
          ...periodCells(s, r, part, first.length > 1),
          ...(part.share <= 0 ? figures.map(() => null) : figures),
        ];
      }),
    ],
  };
}

/** Sessions, messages, clients, transfers and their share per day (or week) and channel. */
export function byPeriodChannelSheet(s: StatsReport, b: PeriodBasis): SheetSource {
  const parts = periodParts(s, s.byPeriodChannel, b.basis, b);
  const first = periodColumns(s, parts);
  return {
    name: s.period === 'week' ? 'By week × channel' : 'By day × channel',
    columns: [
      ...first,
      col('channel', 'Channel', 'text'),
      col('sessions', 'Sessions', 'integer'),
      col('messages', 'Messages', 'integer'),
      col('uniqueClients', 'Unique clients', 'integer'),
      col('transferredSessions', 'Transferred sessions', 'integer'),
      col('transferShare', 'Transfer share', 'percent'),
    ],
    rows: [
      s.byPeriodChannel.map((r, i) => [
        ...periodCells(s, r, parts[i]!, first.length > 1),
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

/** A one-day period: its sessions per day would be a single dot, so the summary charts them by hour. */
export function isOneDay(s: StatsReport): boolean {
  return s.period === 'day' && s.byPeriod.length === 1;
}

/** Day labels of a time axis: month-day within one year, the whole date when the days span several years. */
export function dayCategories(days: readonly string[]): string[] {
  const years = new Set(days.map((d) => d.slice(0, 4)));
  return years.size > 1 ? [...days] : days.map((d) => d.slice(5));
}

const UNIT_NAMES = { hour: 'hour', day: 'day', week: 'week', month: 'month' } as const;

/**
 * Sessions over the period (per hour for one day, given `hourly`; per day; per week): the whole periods as
 * one series, the partial ones as another drawn apart (markers, not joined), the unsynced ones not at all.
 */
export function sessionsChart(s: StatsReport, b: PeriodBasis, hourly?: StatsReport): ChartSpec {
  const over = hourly ?? s;
  const parts = periodParts(over, over.byPeriod, b.basis, b);
  const unit = UNIT_NAMES[over.period];
  const categories =
    over.period === 'hour'
      ? over.byPeriod.map((r) => r.period.slice(11))
      : over.period === 'week'
        ? dayCategories(over.byPeriod.map((r) => localDate(Date.parse(r.start), s.timeZone)))
        : dayCategories(over.byPeriod.map((r) => r.period));
  const values = over.byPeriod.map((r) => r.sessions);
  const whole = parts.map(isWhole);
  const partial = parts.map((p) => !isWhole(p) && p.share > 0);
  const series: ChartSpec['series'] = [{ name: 'Sessions', values, notApplicable: whole.map((w) => !w) }];
  if (partial.some((p) => p))
    series.push({
      name: `Partial ${unit} (synced part only)`,
      values,
      notApplicable: partial.map((p) => !p),
      apart: true,
    });
  const axis = over.period === 'week' ? `Week starting (${s.timeZone})` : `${capital(unit)} (${s.timeZone})`;
  return {
    title: hourly
      ? `Sessions per hour, ${s.byPeriod[0]?.period ?? ''} (${s.timeZone})`
      : `Sessions per ${unit} (${s.timeZone})`,
    kind: hourly ? 'bar' : 'line',
    categories,
    categoryAxis: axis,
    valueAxis: { title: 'Sessions' },
    series,
  };
}

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

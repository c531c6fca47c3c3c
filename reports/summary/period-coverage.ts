// How much of each period of the summary's tables and chart (a day, a week, an hour) its figures cover: the
// part inside the report's period and within the synced data (data-basis.ts). A week cut by the period or by
// the warehouse's first day is labelled by its dates with "6 of 7 days", a day synced in part says from when,
// and on the chart a partial period is drawn apart from the whole ones (its own series, not joined to them),
// a period with nothing synced not at all: a 6-day week is never charted as a drop.
import type { PeriodRow, StatsReport } from '../../src/analysis/stats/stats-report.js';
import { COVERED_SHARE, coverage, type DataBasis } from '../../src/report/data-basis.js';
import { addLocalDays, localDate, localMinute } from '../../src/report/describe-period.js';

const HOUR_MS = 3_600_000;

/** A period of the statistics with the share of it the figures cover. */
export interface PeriodPart {
  start: number;
  end: number;
  /** 0 to 1: the part of [start, end) inside the report's period and synced. */
  share: number;
  /** The covered part's bounds. */
  from: number;
  to: number;
}

/** Each period row's part. */
export function periodParts(
  s: StatsReport,
  rows: readonly Pick<PeriodRow, 'start'>[],
  basis: DataBasis,
  period: { from: number; to: number },
): PeriodPart[] {
  return rows.map((r) => {
    const start = Date.parse(r.start);
    const end =
      s.period === 'hour'
        ? start + HOUR_MS
        : addLocalDays(start, s.period === 'week' ? 7 : s.period === 'month' ? 30 : 1, s.timeZone);
    const inside = { from: Math.max(start, period.from), to: Math.min(end, period.to) };
    const length = Math.max(inside.to - inside.from, 0);
    const share = (coverage(basis, inside.from, inside.to) * length) / (end - start);
    const from = Math.max(inside.from, basis.dataFrom ?? inside.to);
    const to = Math.min(inside.to, basis.syncedTo ?? inside.from);
    return { start, end, share, from, to };
  });
}

/** True when the period's figures are whole (COVERED_SHARE of it covered). */
export function isWhole(part: PeriodPart): boolean {
  return part.share >= COVERED_SHARE;
}

/** Days of a week the figures cover (0 to 7). */
export function daysOf(part: PeriodPart): number {
  return Math.round(part.share * 7);
}

/** A week by its dates (the days inside the period), with "(6 of 7 days)" when it is partial. */
export function weekLabel(part: PeriodPart, tz: string): string {
  const first = localDate(Math.max(part.start, Math.min(part.from, part.end - 1)), tz);
  const last = localDate(Math.max(part.start, Math.min(part.to, part.end) - 1), tz);
  const dates = first === last ? first : `${first} – ${last}`;
  return isWhole(part) ? dates : `${dates} (${daysOf(part)} of 7 days)`;
}

/** What part of a day the figures cover: `whole day`, `not synced`, `partial: 14:05 – 24:00`. */
export function dayPart(part: PeriodPart, tz: string): string {
  if (isWhole(part)) return 'whole day';
  if (part.share <= 0) return 'not synced';
  const time = (t: number) => (t >= part.end ? '24:00' : localMinute(t, tz).slice(11));
  return `partial: ${time(part.from)} – ${time(part.to)}`;
}

// The UTC days a daily source reads in one run: on the first run REPORTER_HISTORY_DAYS back through today;
// after that from the last day read, less the days the lookback (REPORTER_LOOKBACK_HOURS) says may still
// change (sessions go on past midnight, late records arrive), through today. A day is always read whole.
const DAY_MS = 86_400_000;

/** yyyy-MM-dd of the UTC day of `t`. */
export function dayOf(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}

/** [from, to) of a UTC day, epoch ms. */
export function dayBounds(day: string): { from: number; to: number } {
  const from = Date.parse(`${day}T00:00:00.000Z`);
  return { from, to: from + DAY_MS };
}

export interface DaysToRead {
  now: number;
  /** The last day the previous run read (the source's cursor), if any. */
  lastRead?: string | undefined;
  /** REPORTER_HISTORY_DAYS, as config.historyMs. */
  historyMs: number;
  /** REPORTER_LOOKBACK_HOURS, as config.lookbackMs. */
  lookbackMs: number;
}

/** The days to read, oldest first, today last. */
export function daysToRead(options: DaysToRead): string[] {
  const today = dayBounds(dayOf(options.now)).from;
  const oldest = today - Math.ceil(options.historyMs / DAY_MS) * DAY_MS;
  const first =
    options.lastRead === undefined
      ? oldest
      : Math.min(today, dayBounds(options.lastRead).from - Math.ceil(options.lookbackMs / DAY_MS) * DAY_MS);
  const days: string[] = [];
  for (let t = Math.max(first, oldest); t <= today; t += DAY_MS) days.push(dayOf(t));
  return days;
}

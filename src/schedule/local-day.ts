// "Yesterday" for the daily jobs: the whole local day before the one holding `now`, in an IANA zone, as a
// half-open range of instants [from, to) (23 or 25 hours long across a daylight-saving change).
import { localToInstant, offsetAt } from '../time/parse-zoned-time.js';

const DAY_MS = 86_400_000;

export interface LocalDay {
  /** YYYY-MM-DD in the zone. */
  date: string;
  from: number;
  to: number;
}

export function yesterdayIn(timeZone: string, now: number): LocalDay {
  const wall = now + offsetAt(now, timeZone);
  const todayWall = Math.floor(wall / DAY_MS) * DAY_MS;
  const yesterdayWall = todayWall - DAY_MS;
  return {
    date: new Date(yesterdayWall).toISOString().slice(0, 10),
    from: localToInstant(yesterdayWall, timeZone),
    to: localToInstant(todayWall, timeZone),
  };
}

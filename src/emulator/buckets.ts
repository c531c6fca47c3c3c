// Time buckets of the statistics operations: HOUR..YEAR intervals of `step` units in the local time of
// a fixed offset (the `Timezone` header, minutes east of UTC). A bucket's `ts` is its local start as epoch ms.
export const INTERVAL_TYPES = ['HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR'] as const;
export type IntervalType = (typeof INTERVAL_TYPES)[number];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** 1970-01-05 was a Monday: weeks start on Mondays. */
const MONDAY = 4 * DAY;

/** Index of the interval holding local time `t + offset` (months since year 0 for calendar units). */
function intervalIndex(t: number, type: IntervalType, offsetMinutes: number): number {
  const local = t + offsetMinutes * 60_000;
  switch (type) {
    case 'HOUR':
      return Math.floor(local / HOUR);
    case 'DAY':
      return Math.floor(local / DAY);
    case 'WEEK':
      return Math.floor((local - MONDAY) / (7 * DAY));
    default: {
      const d = new Date(local);
      const months = d.getUTCFullYear() * 12 + d.getUTCMonth();
      if (type === 'MONTH') return months;
      if (type === 'QUARTER') return Math.floor(months / 3);
      return d.getUTCFullYear();
    }
  }
}

/** Epoch ms of the start of interval `index`. */
function intervalStart(index: number, type: IntervalType, offsetMinutes: number): number {
  const shift = offsetMinutes * 60_000;
  switch (type) {
    case 'HOUR':
      return index * HOUR - shift;
    case 'DAY':
      return index * DAY - shift;
    case 'WEEK':
      return index * 7 * DAY + MONDAY - shift;
    case 'MONTH':
      return Date.UTC(Math.floor(index / 12), index % 12, 1) - shift;
    case 'QUARTER':
      return Date.UTC(Math.floor((index * 3) / 12), (index * 3) % 12, 1) - shift;
    default:
      return Date.UTC(index, 0, 1) - shift;
  }
}

export class Buckets {
  private readonly counts = new Map<number, number>();
  total = 0;
  constructor(
    private readonly type: IntervalType,
    private readonly step: number,
    private readonly offsetMinutes: number,
  ) {}

  private group(t: number): number {
    const index = intervalIndex(t, this.type, this.offsetMinutes);
    return Math.floor(index / this.step) * this.step;
  }

  add(t: number, by = 1): void {
    const g = this.group(t);
    this.counts.set(g, (this.counts.get(g) ?? 0) + by);
    this.total += by;
  }

  /** `[{ts, value}]` ascending; with a finite range, empty buckets inside it are listed with 0. */
  list(range?: [number, number]): { ts: number; value: number }[] {
    const groups = new Set(this.counts.keys());
    if (range && Number.isFinite(range[0]) && Number.isFinite(range[1])) {
      const first = this.group(range[0]);
      const last = this.group(range[1]);
      if ((last - first) / this.step <= 5000) for (let g = first; g <= last; g += this.step) groups.add(g);
    }
    return [...groups]
      .sort((a, b) => a - b)
      .map((g) => ({ ts: intervalStart(g, this.type, this.offsetMinutes), value: this.counts.get(g) ?? 0 }));
  }
}

// A local day's name (2026-11-20, as the statistics name their periods) as the value of a `date` cell: the
// day's midnight as if it were UTC, which Excel shows as that calendar day whatever the report's zone.
export function localDay(period: string): number {
  return Date.parse(`${period.slice(0, 10)}T00:00:00Z`);
}

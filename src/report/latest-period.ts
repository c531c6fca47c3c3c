// The period of a report that defaults to its latest record (`report kb-eval` without --from/--to: the latest
// `kb eval` run): the whole local day, in the report's zone, holding the instant its `latestSql` names.
// Invariant: with no such record (an empty table) it is undefined, and the caller's default applies.

import { localToInstant, offsetAt } from '../time/parse-zoned-time.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { loadReportSql } from './load-report-sql.js';

const DAY_MS = 86_400_000;

/** The local day holding the report's latest record, or undefined when it has none. */
export async function latestRecordDay(
  warehouse: Warehouse,
  report: { id: string; latestSql?: string },
  timeZone: string,
): Promise<{ from: number; to: number } | undefined> {
  if (report.latestSql === undefined) return undefined;
  const [row] = await warehouse.query(loadReportSql(report.id, report.latestSql));
  const latest = row?.['latest'];
  if (latest === null || latest === undefined) return undefined;
  const t = Number(latest);
  const midnight = Math.floor((t + offsetAt(t, timeZone)) / DAY_MS) * DAY_MS;
  return { from: localToInstant(midnight, timeZone), to: localToInstant(midnight + DAY_MS, timeZone) };
}

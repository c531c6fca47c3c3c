// What a report's figures stand on: from when the warehouse holds the selected projects' data (the first
// synced session or message of each, the latest of them: every project is covered from then), up to when it
// was synced (their watermarks in etl_state, the earliest; the last record without one) and when the last sync
// finished (etl_runs; for the knowledge base's reports, the last kb sync). A trend or a change is drawn only
// where the earlier period is covered by synced data (COVERED_SHARE); every report prints when it was synced.
import type { Warehouse } from '../warehouse/warehouse.js';
import { localDate, localMinute } from './describe-period.js';

/** A period is covered when at least this share of it lies within the synced data (minutes of quiet at its start). */
export const COVERED_SHARE = 0.99;

export interface DataBasis {
  /** `reporter`: the synced Reporter projects; `kb`: the knowledge base's snapshots. */
  reads: 'reporter' | 'kb';
  /** Epoch ms from which the warehouse holds every selected project's data; null: no data. */
  dataFrom: number | null;
  /** Epoch ms up to which it was synced; null: no data. */
  syncedTo: number | null;
  /** When the last sync (kb sync) finished, epoch ms; null: none recorded. */
  lastSync: number | null;
  tz: string;
}

/** One row: the latest first record of the selected projects, the earliest of their watermarks, the oldest last sync. */
const REPORTER_BASIS_SQL = `
WITH selected AS (SELECT unnest($projects::VARCHAR[]) AS project),
per_project AS (
  SELECT p.project,
    least((SELECT min(s.start_time) FROM sessions s WHERE s.project = p.project),
      (SELECT min(m."timestamp") FROM messages m WHERE m.project = p.project)) AS first_at,
    greatest((SELECT max(s.start_time) FROM sessions s WHERE s.project = p.project),
      (SELECT max(m."timestamp") FROM messages m WHERE m.project = p.project)) AS last_at,
    (SELECT max(e.value) FROM etl_state e WHERE e.project = p.project AND e.key = 'watermark') AS watermark,
    (SELECT max(r.finished_at) FROM etl_runs r
      WHERE r.project = p.project AND r.job = 'sync' AND r.status IN ('success', 'partial')) AS last_sync
  FROM selected p
)
SELECT epoch_ms(max(first_at)) AS data_from,
  epoch_ms(min(coalesce(TRY_CAST(watermark AS TIMESTAMPTZ), last_at))) AS synced_to,
  epoch_ms(min(last_sync)) AS last_sync
FROM per_project
WHERE first_at IS NOT NULL`;

/** The knowledge base: its snapshots' span and the last kb sync that finished. */
const KB_BASIS_SQL = `
SELECT epoch_ms(min(taken_at)) AS data_from, epoch_ms(max(taken_at)) AS synced_to,
  (SELECT epoch_ms(max(finished_at)) FROM etl_runs
    WHERE job = 'kb-sync' AND status IN ('success', 'partial')) AS last_sync
FROM kb_snapshots`;

export async function readDataBasis(
  warehouse: Warehouse,
  reads: 'reporter' | 'kb',
  projects: readonly string[],
  tz: string,
): Promise<DataBasis> {
  const rows =
    reads === 'kb'
      ? await warehouse.query(KB_BASIS_SQL)
      : await warehouse.query(REPORTER_BASIS_SQL, { projects: [...projects] });
  const at = (key: string) => {
    const v = rows[0]?.[key];
    return typeof v === 'number' ? v : null;
  };
  return { reads, dataFrom: at('data_from'), syncedTo: at('synced_to'), lastSync: at('last_sync'), tz };
}

/** The share of [from, to) that lies within the synced data, 0 to 1. */
export function coverage(basis: DataBasis, from: number, to: number): number {
  if (basis.dataFrom === null || basis.syncedTo === null || to <= from) return 0;
  const covered = Math.min(to, basis.syncedTo) - Math.max(from, basis.dataFrom);
  return Math.max(0, Math.min(1, covered / (to - from)));
}

/** True when [from, to) is covered by synced data (COVERED_SHARE of it at least). */
export function isCovered(basis: DataBasis, from: number, to: number): boolean {
  return coverage(basis, from, to) >= COVERED_SHARE;
}

/**
 * Why a figure of [from, to) (the `what`: "the previous period") is not shown: `the previous period is 43 %
 * covered, data from 2026-10-12`.
 */
export function coverageNote(basis: DataBasis, what: string, from: number, to: number): string {
  const share = Math.floor(coverage(basis, from, to) * 100);
  const since =
    basis.dataFrom === null ? 'no data synced yet' : `data from ${localDate(basis.dataFrom, basis.tz)}`;
  return `${what} is ${share} % covered, ${since}`;
}

/** When the data was last synced, as every printed page and the HTML page say it. */
export function syncedLine(basis: DataBasis): string {
  const what = basis.reads === 'kb' ? 'Knowledge base last synced' : 'Last synced';
  const at = basis.lastSync ?? basis.syncedTo;
  if (at === null) return `${what}: never`;
  return `${what} ${localMinute(at, basis.tz)} (${basis.tz})`;
}

/** From when the warehouse knows the data, in words: `2026-10-12 14:05` (null: nothing synced). */
export function dataFromText(basis: DataBasis): string | null {
  return basis.dataFrom === null ? null : localMinute(basis.dataFrom, basis.tz);
}

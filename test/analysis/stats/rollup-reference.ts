// The reference the rollups are held to: the statistics' SQL as it was before the rollups (raw-sql/: every
// figure computed from the raw rows of sessions, messages and their labels and sessionData), and checks that a
// report from the rollups equals the report from the raw rows, and that the rollup tables equal a full rebuild.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { computeStats, type StatsSql } from '../../../src/analysis/stats/compute-stats.js';
import {
  loadStatsSql,
  STATS_QUERIES,
  type StatsQueryName,
} from '../../../src/analysis/stats/load-stats-sql.js';
import type { StatsQuery } from '../../../src/analysis/stats/stats-report.js';
import { describeRollupRebuild, ROLLUP_TABLES } from '../../../src/warehouse/rebuild-rollups.js';
import type { PlainRow, Warehouse } from '../../../src/warehouse/warehouse.js';

const RAW_DIR = fileURLToPath(new URL('./raw-sql/', import.meta.url));

/** The statements over the raw rows: raw-sql/ where a statement reads a rollup, the statistics' own elsewhere. */
export function rawStatsSql(): StatsSql {
  const sql: Record<string, string> = { ...loadStatsSql() };
  for (const file of readdirSync(RAW_DIR)) {
    const name = file.replace(/\.sql$/, '') as StatsQueryName;
    if (!STATS_QUERIES.includes(name)) throw new Error(`raw-sql/${file} is no statistics statement`);
    sql[name] = readFileSync(`${RAW_DIR}/${file}`, 'utf8');
  }
  for (const statement of Object.values(sql)) expect(statement).not.toMatch(/\bstat_\w+/);
  return sql as StatsSql;
}

export type ReportCase = Partial<StatsQuery> & Pick<StatsQuery, 'timeZone' | 'period'>;

/** Every case's report from the rollups equals the report from the raw rows, figure for figure. */
export async function expectRollupsEqualRaw(w: Warehouse, cases: readonly ReportCase[]): Promise<number> {
  const raw = rawStatsSql();
  let figures = 0;
  for (const c of cases) {
    const query: StatsQuery = { top: 100, catchAllClass: '/CatchAll', ...c };
    const now = () => 0;
    const fromRollups = await computeStats(w, query, { now });
    const fromRaw = await computeStats(w, query, { now, sql: raw });
    expect(fromRollups, JSON.stringify(c)).toEqual(fromRaw);
    figures += JSON.stringify(fromRaw).length;
  }
  return figures;
}

/** Each rollup table's rows, in a stable order. */
export async function readRollups(w: Warehouse): Promise<Record<string, PlainRow[]>> {
  const out: Record<string, PlainRow[]> = {};
  for (const table of ROLLUP_TABLES)
    out[table] = await w.query(`SELECT COLUMNS(*)::VARCHAR FROM ${table} ORDER BY ALL NULLS FIRST`);
  return out;
}

/** The rollups as the window commits kept them equal the rollups rebuilt from the raw rows. */
export async function expectRollupsEqualRebuild(w: Warehouse): Promise<void> {
  const kept = await readRollups(w);
  await w.commitBatch(describeRollupRebuild(new Date(0)));
  const rebuilt = await readRollups(w);
  for (const table of ROLLUP_TABLES) expect(kept[table], table).toEqual(rebuilt[table]);
}

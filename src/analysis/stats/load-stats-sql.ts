// The statistics' SQL: one statement per file in src/analysis/stats/sql/, read once and kept by name, so an analyst
// can open and run each in the DuckDB CLI (PREPARE ... ; EXECUTE ...(name := value)). Parameters are bound.
// tsc does not copy .sql files into dist/, so the directory is looked up next to this file or in src/.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EtlError } from '../../errors.js';
import type { SqlParam } from '../../warehouse/warehouse.js';

export const STATS_QUERIES = [
  'all-time-figures',
  'by-channel',
  'by-period',
  'catalogue-names',
  'delivery-funnel',
  'experiments',
  'first-questions',
  'intents',
  'message-bounds',
  'message-labels',
  'prompter',
  'prompter-intents',
  'session-data',
  'session-labels',
  'totals',
  'transferred-sessions',
  'window-bounds',
] as const;
export type StatsQueryName = (typeof STATS_QUERIES)[number];

let cache: Readonly<Record<StatsQueryName, string>> | undefined;

/** The sql/ directory of the statistics, whether this code runs from src/ or dist/src/. */
export function locateStatsSqlDir(): string {
  const candidates = [
    new URL('./sql/', import.meta.url),
    new URL('../../../../src/analysis/stats/sql/', import.meta.url),
  ];
  for (const candidate of candidates) {
    const dir = fileURLToPath(candidate);
    if (existsSync(dir)) return dir;
  }
  throw new EtlError(
    'stats.sql_missing',
    `The statistics' SQL files were not found (looked in ${candidates.map((c) => fileURLToPath(c)).join(', ')})`,
  );
}

/** Every statistics statement by name (read from disk once per process). */
export function loadStatsSql(): Readonly<Record<StatsQueryName, string>> {
  if (cache) return cache;
  const dir = locateStatsSqlDir();
  const entries = STATS_QUERIES.map((name) => {
    try {
      return [name, readFileSync(`${dir}/${name}.sql`, 'utf8')] as const;
    } catch (cause) {
      throw new EtlError('stats.sql_missing', `The statistics query ${dir}/${name}.sql cannot be read`, {
        cause,
      });
    }
  });
  cache = Object.freeze(Object.fromEntries(entries) as Record<StatsQueryName, string>);
  return cache;
}

/** The bound parameters a statement's code (comments aside) names ($name), picked from all those the statistics use. */
export function paramsFor(sql: string, all: Readonly<Record<string, SqlParam>>): Record<string, SqlParam> {
  const picked: Record<string, SqlParam> = {};
  const code = sql.replace(/--[^\n]*/g, '');
  for (const match of code.matchAll(/\$([a-z_][a-z0-9_]*)/g)) {
    const name = match[1]!;
    if (name in picked) continue;
    const value = all[name];
    if (value === undefined)
      throw new EtlError('stats.param_missing', `The statistics query needs the parameter $${name}`);
    picked[name] = value;
  }
  return picked;
}

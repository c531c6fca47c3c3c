// Reads a report's own SQL (reports/<id>/<name>.sql): one statement per file with $name parameters, so an
// analyst can run it in the DuckDB CLI. tsc does not copy .sql files into dist/, so reports/ is looked up
// next to this code (src/report/ → reports/) and, from dist/src/report/, in the source tree beside dist/.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EtlError } from '../errors.js';

const cache = new Map<string, string>();

export function loadReportSql(reportId: string, name: string): string {
  const key = `${reportId}/${name}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const candidates = [
    new URL(`../../reports/${reportId}/${name}.sql`, import.meta.url),
    new URL(`../../../reports/${reportId}/${name}.sql`, import.meta.url),
  ].map((u) => fileURLToPath(u));
  const path = candidates.find((p) => existsSync(p));
  if (path === undefined)
    throw new EtlError(
      'report.sql_missing',
      `The SQL of report "${reportId}" (${name}.sql) was not found (looked in ${candidates.join(', ')})`,
    );
  const sql = readFileSync(path, 'utf8');
  cache.set(key, sql);
  return sql;
}

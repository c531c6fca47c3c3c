// The SQL of the dialog paths: one statement per file in src/analysis/paths/sql/, read once and kept by name,
// so an analyst can run each in the DuckDB CLI (PREPARE ...; EXECUTE ...(name := value)); parameters are bound.
// tsc does not copy .sql files into dist/, so the folder is looked up next to this file or in src/.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EtlError } from '../../errors.js';
import type { SqlParam } from '../../warehouse/warehouse.js';

export const PATHS_QUERIES = [
  'coverage',
  'drop-off',
  'flows',
  'names',
  'previous',
  'unhandled-clusters',
  'unhandled-run',
] as const;
export type PathsQueryName = (typeof PATHS_QUERIES)[number];
export type PathsSql = Readonly<Record<PathsQueryName, string>>;

let cache: PathsSql | undefined;

/** The sql/ folder of the paths, whether this code runs from src/ or dist/src/. */
function locatePathsSqlDir(): string {
  const candidates = [
    new URL('./sql/', import.meta.url),
    new URL('../../../../src/analysis/paths/sql/', import.meta.url),
  ].map((u) => fileURLToPath(u));
  const found = candidates.find((dir) => existsSync(dir));
  if (found === undefined)
    throw new EtlError(
      'paths.sql_missing',
      `The SQL files of the paths were not found (looked in ${candidates.join(', ')})`,
    );
  return found;
}

/** Every statement of the paths by name (read from disk once per process). */
export function loadPathsSql(): PathsSql {
  if (cache) return cache;
  const dir = locatePathsSqlDir();
  const entries = PATHS_QUERIES.map((name) => {
    try {
      return [name, readFileSync(`${dir}/${name}.sql`, 'utf8')] as const;
    } catch (cause) {
      throw new EtlError('paths.sql_missing', `The paths query ${dir}/${name}.sql cannot be read`, { cause });
    }
  });
  cache = Object.freeze(Object.fromEntries(entries) as Record<PathsQueryName, string>);
  return cache;
}

/** The parameters a statement names ($name, comments aside), picked from `all`; a missing one is a bug. */
export function pickParams(sql: string, all: Readonly<Record<string, SqlParam>>): Record<string, SqlParam> {
  const picked: Record<string, SqlParam> = {};
  for (const match of sql.replace(/--[^\n]*/g, '').matchAll(/\$([a-z_][a-z0-9_]*)/g)) {
    const name = match[1]!;
    if (name in picked) continue;
    const value = all[name];
    if (value === undefined)
      throw new EtlError('paths.param_missing', `The paths query needs the parameter $${name}`);
    picked[name] = value;
  }
  return picked;
}

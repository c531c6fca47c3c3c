// The writer's check of the SQL a reader sends over the read socket (a `query` read or a `stream`): exactly one
// statement, a SELECT (DuckDB's json_serialize_sql serializes nothing else: no transaction control, SET,
// ATTACH, COPY, INSTALL or writes), reaching only the warehouse's data (served-sql-rules.ts). The writer's
// DuckDB keeps file access on (it exports Parquet), so this check, not a setting, keeps a reader in. Verdicts
// are kept per SQL text: a reader's repeated queries are checked once.
import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import { queryRows } from './query-rows.js';
import { findOutOfReach, type ServedCatalog } from './served-sql-rules.js';

/** DuckDB's JSON of the statement: {error, statements[]}; every statement that is not a SELECT is an error. */
const SERIALIZE_SQL = 'SELECT json_serialize_sql($sql::VARCHAR) AS parsed';
const CATALOG_SQL = `
SELECT 'relation' AS kind, lower(table_name) AS name FROM duckdb_tables()
WHERE database_name = current_database() AND schema_name = 'main'
UNION ALL SELECT 'relation', lower(view_name) FROM duckdb_views()
WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal
UNION ALL SELECT 'function', lower(function_name) FROM duckdb_functions()
WHERE function_type IN ('scalar', 'aggregate', 'macro')
UNION ALL SELECT 'type', lower(type_name) FROM duckdb_types()
UNION ALL SELECT 'database', lower(current_database())`;
/** Verdicts kept; past this many different texts the cache starts over (readers send a few dozen). */
const MAX_VERDICTS = 1_000;

/** Throws `warehouse.read_refused` unless `sql` is one SELECT of the warehouse's data. */
export type CheckServedSql = (connection: DuckDBConnection, sql: string) => Promise<void>;

export function createServedSqlCheck(): CheckServedSql {
  /** SQL text -> why it is refused, or null when it may run. */
  const verdicts = new Map<string, string | null>();
  let catalog: ServedCatalog | undefined;
  const judge = async (connection: DuckDBConnection, sql: string): Promise<string | null> => {
    const parsed = await parseOneSelect(connection, sql);
    if ('refused' in parsed) return parsed.refused;
    const { statement } = parsed;
    const known = catalog;
    catalog ??= await readCatalog(connection);
    let reason = findOutOfReach(statement, catalog);
    if (reason && known) {
      // a table or function added since the catalog was read (a migration of a newer writer): read it again
      catalog = await readCatalog(connection);
      reason = findOutOfReach(statement, catalog);
    }
    return reason ?? null;
  };
  return async (connection, sql) => {
    let verdict = verdicts.get(sql);
    if (verdict === undefined) {
      verdict = await judge(connection, sql);
      if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
      verdicts.set(sql, verdict);
    }
    if (verdict !== null)
      throw new EtlError(
        'warehouse.read_refused',
        `The writer serves reads only: ${verdict}. A served request is one SELECT of the warehouse's tables ` +
          `(no transaction control, SET, ATTACH, COPY, INSTALL, files, URLs or settings).`,
      );
  };
}

/** The serialized SELECT, or why `sql` is not exactly one SELECT. */
async function parseOneSelect(
  connection: DuckDBConnection,
  sql: string,
): Promise<{ statement: unknown } | { refused: string }> {
  let count: number;
  try {
    count = (await connection.extractStatements(sql)).count;
  } catch (error) {
    return { refused: `the SQL does not parse (${(error as Error).message.split('\n')[0]})` };
  }
  if (count !== 1) return { refused: `the SQL holds ${count} statements, not one` };
  const [row] = await queryRows(connection, SERIALIZE_SQL, { sql });
  const parsed = JSON.parse(String(row?.['parsed'] ?? '{}')) as {
    error?: boolean;
    error_message?: string;
    statements?: unknown[];
  };
  if (parsed.error !== false || parsed.statements?.length !== 1)
    return { refused: `it is not a SELECT (${parsed.error_message ?? 'DuckDB could not tell'})` };
  return { statement: parsed.statements[0] };
}

async function readCatalog(connection: DuckDBConnection): Promise<ServedCatalog> {
  const rows = await queryRows(connection, CATALOG_SQL);
  const of = (kind: string) => new Set(rows.filter((r) => r['kind'] === kind).map((r) => String(r['name'])));
  return {
    database: String(rows.find((r) => r['kind'] === 'database')?.['name'] ?? ''),
    relations: of('relation'),
    functions: of('function'),
    types: of('type'),
  };
}

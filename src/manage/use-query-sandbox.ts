// The sandbox the analyst's --sql runs in: a DuckDB instance of its own on the warehouse file, opened
// READ_ONLY with file-system access, extension install and autoload off and its configuration locked, so a
// query reads the warehouse's tables and nothing else (no read_text('/etc/passwd'), no URL, no COPY TO,
// ATTACH or INSTALL) and changes nothing. Invariant: one DuckDB file is open once per process
// (openDatabaseFile), so the sandbox is opened per step, never while this process holds the warehouse.
import type { Json } from '@duckdb/node-api';
import type { Logger } from '../log.js';
import { convertToJsonValue } from '../warehouse/convert-to-json-value.js';
import { openDatabaseFile } from '../warehouse/open-database-file.js';
import { queryRows } from '../warehouse/query-rows.js';
import { askForTurn, turnMarkerOf, withdrawTurnRequest } from '../warehouse/turn-marker.js';
import type { PlainRow, SqlParams } from '../warehouse/warehouse.js';

/** DuckDB instance options of the sandbox: set at start, they cannot be changed by the query. */
export const SANDBOX_SETTINGS: Readonly<Record<string, string>> = {
  access_mode: 'READ_ONLY',
  enable_external_access: 'false',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
  lock_configuration: 'true',
};

export interface QuerySandbox {
  /** Runs one statement (values bound) and reads its rows. */
  query(sql: string, params?: SqlParams): Promise<PlainRow[]>;
  /** How many statements DuckDB's parser finds in `sql` (nothing is run); a parse error throws. */
  countStatements(sql: string): Promise<number>;
  /** Runs one statement and reads its rows chunk by chunk, as JSON values (convert-to-json-value.ts). */
  stream(sql: string): Promise<{ columns: string[]; chunks: AsyncIterable<Json[][]> }>;
}

export type UseQuerySandbox = <T>(fn: (sandbox: QuerySandbox) => Promise<T>) => Promise<T>;

/** A `UseQuerySandbox` that opens the warehouse file `path` read-only for each call and closes it after. */
export function useQuerySandboxAt(options: {
  path: string;
  lockWaitMs: number;
  log?: Logger;
}): UseQuerySandbox {
  return async (fn) => {
    // a writer holding the file lets the sandbox in when asked (turn-marker.ts), as it does any reader
    const marker = turnMarkerOf(options.path);
    let asked = false;
    const db = await openDatabaseFile({
      ...options,
      settings: { ...SANDBOX_SETTINGS },
      onLockWait: () => {
        asked = true;
        askForTurn(marker);
      },
    }).finally(() => {
      if (asked) withdrawTurnRequest(marker);
    });
    const { connection } = db;
    try {
      return await fn({
        query: (sql, params) => queryRows(connection, sql, params),
        countStatements: async (sql) => (await connection.extractStatements(sql)).count,
        async stream(sql) {
          const result = await connection.stream(sql);
          return { columns: result.columnNames(), chunks: result.yieldConvertedRows(convertToJsonValue) };
        },
      });
    } finally {
      db.release();
    }
  };
}

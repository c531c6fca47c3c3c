// The sandbox the analyst's --sql runs in: a DuckDB instance of its own on the warehouse file, opened
// READ_ONLY with file-system access, extension install and autoload off and its configuration locked, so a
// query reads the warehouse's tables and nothing else (no read_text('/etc/passwd'), no URL, no COPY TO,
// ATTACH or INSTALL) and changes nothing. It holds the file (keeping writers out) only while it runs, and at
// most its time limit: a query is interrupted then, or as soon as a writer asks for the file (watch-sandbox.ts).
// Invariant: one DuckDB file is open once per process (openDatabaseFile), so the sandbox is opened per step,
// never while this process holds the warehouse.
import type { DuckDBResult, Json } from '@duckdb/node-api';
import type { Logger } from '../log.js';
import { convertToJsonValue } from '../warehouse/convert-to-json-value.js';
import { openDatabaseFile } from '../warehouse/open-database-file.js';
import { assertWarehouseFolderTrusted } from '../warehouse/open-warehouse.js';
import { queryRows } from '../warehouse/query-rows.js';
import { askForTurn, turnMarkerOf, withdrawTurnRequest } from '../warehouse/turn-marker.js';
import type { PlainRow, SqlParams } from '../warehouse/warehouse.js';
import type { SandboxTimeLimit } from './sandbox-errors.js';
import { type SandboxWatch, watchSandbox } from './watch-sandbox.js';

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
  /** Waits for the output's reader (not counted in the time limit; a writer waiting ends it: exit 75). */
  waitForOutput(waiting: Promise<void>): Promise<void>;
}

export type UseQuerySandbox = <T>(fn: (sandbox: QuerySandbox) => Promise<T>) => Promise<T>;

/**
 * A `UseQuerySandbox` that opens the warehouse file `path` read-only for each call and closes it after; its
 * statements stop at `timeLimit` (manage.query_timeout) or when a writer waits (manage.query_yielded_to_writer).
 */
export function useQuerySandboxAt(options: {
  path: string;
  lockWaitMs: number;
  timeLimit: SandboxTimeLimit;
  memoryLimit?: string | undefined;
  log?: Logger | undefined;
}): UseQuerySandbox {
  return async (fn) => {
    assertWarehouseFolderTrusted(options.path);
    // a writer holding the file lets the sandbox in when asked (turn-marker.ts), as it does any reader
    const marker = turnMarkerOf(options.path);
    let asked = false;
    const db = await openDatabaseFile({
      path: options.path,
      lockWaitMs: options.lockWaitMs,
      memoryLimit: options.memoryLimit,
      log: options.log,
      settings: { ...SANDBOX_SETTINGS },
      onLockWait: () => {
        asked = true;
        askForTurn(marker, 'reader');
      },
    }).finally(() => {
      if (asked) withdrawTurnRequest(marker);
    });
    const { connection } = db;
    const watch = watchSandbox({
      connection,
      marker,
      timeLimit: options.timeLimit,
      memoryLimit: options.memoryLimit,
    });
    options.log?.debug(
      { path: options.path, timeLimitMs: options.timeLimit.ms },
      'the query sandbox holds the warehouse',
    );
    try {
      return await fn({
        query: (sql, params) => watch.run(() => queryRows(connection, sql, params)),
        countStatements: (sql) => watch.run(async () => (await connection.extractStatements(sql)).count),
        async stream(sql) {
          const result = await watch.run(() => connection.stream(sql));
          return { columns: result.columnNames(), chunks: watchedChunks(result, watch) };
        },
        waitForOutput: (waiting) => watch.waitOutside(waiting),
      });
    } finally {
      watch.end();
      db.release();
    }
  };
}

/** The result's rows chunk by chunk, each fetch under the watch (a stop interrupts it). */
async function* watchedChunks(result: DuckDBResult, watch: SandboxWatch): AsyncIterable<Json[][]> {
  const chunks = result.yieldConvertedRows(convertToJsonValue)[Symbol.asyncIterator]();
  for (;;) {
    const next = await watch.run(() => chunks.next());
    if (next.done) return;
    yield next.value;
  }
}

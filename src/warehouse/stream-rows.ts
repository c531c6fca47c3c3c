// Streams one SQL statement's result chunk by chunk (DuckDB's streaming result, ~2,048 rows a chunk), so an
// export of millions of rows never holds them all: each chunk's values are plain JS (no bigint: integers and
// decimals become number, timestamps epoch ms), the same values as `query`'s convertToPlainValue gives.
// A chunk is read column by column, each column's converter chosen once from its type: text, booleans and
// 32-bit numbers are taken as DuckDB's node API reads them, other types go through convertToPlainValue
// (row by row through the API's generic converter took twice the CPU: bench/README.md, issue 34 item 5).
// The next chunk is fetched while the consumer works on this one.
import type { DuckDBConnection, DuckDBDataChunk, DuckDBTypeId } from '@duckdb/node-api';
import { duckdb } from './duckdb-api.js';
import { bindParams, convertToPlainValue } from './query-rows.js';
import type { PlainValue, SqlParams, StreamedRows } from './warehouse.js';

export async function* streamRows(
  connection: DuckDBConnection,
  sql: string,
  params?: SqlParams,
): AsyncGenerator<StreamedRows> {
  const bound = params ? bindParams(params) : undefined;
  const result = await connection.stream(sql, bound?.values, bound?.types);
  const columns = result.columnNames();
  // the next chunk is fetched (DuckDB works on its own thread) while this one is converted and written
  let next = result.fetchChunk();
  try {
    for (;;) {
      const chunk = await next;
      if (!chunk || chunk.rowCount === 0) return;
      next = result.fetchChunk();
      yield { columns, rows: chunkRows(chunk) };
    }
  } finally {
    // a consumer that stopped early leaves a fetch behind: its failure is no one's
    next.catch(() => undefined);
  }
}

let plainAsRead: ReadonlySet<DuckDBTypeId> | undefined;

/** The types whose values DuckDB's node API already reads as their plain JS value (string, boolean, number). */
function typesPlainAsRead(): ReadonlySet<DuckDBTypeId> {
  const { DuckDBTypeId: T } = duckdb();
  plainAsRead ??= new Set([
    T.VARCHAR,
    T.BOOLEAN,
    T.TINYINT,
    T.SMALLINT,
    T.INTEGER,
    T.UTINYINT,
    T.USMALLINT,
    T.UINTEGER,
    T.FLOAT,
    T.DOUBLE,
  ]);
  return plainAsRead;
}

/** A chunk's rows as plain values, read column by column. */
export function chunkRows(chunk: DuckDBDataChunk): PlainValue[][] {
  const rowCount = chunk.rowCount;
  const columnCount = chunk.columnCount;
  const plain = typesPlainAsRead();
  const rows: PlainValue[][] = new Array(rowCount);
  for (let r = 0; r < rowCount; r += 1) rows[r] = new Array(columnCount);
  for (let c = 0; c < columnCount; c += 1) {
    const vector = chunk.getColumnVector(c);
    const type = vector.type;
    if (plain.has(type.typeId)) {
      for (let r = 0; r < rowCount; r += 1) rows[r]![c] = (vector.getItem(r) ?? null) as PlainValue;
    } else {
      for (let r = 0; r < rowCount; r += 1)
        rows[r]![c] = convertToPlainValue(vector.getItem(r), type, convertToPlainValue);
    }
  }
  return rows;
}

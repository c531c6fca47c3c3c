// Streams one SQL statement's result chunk by chunk (DuckDB's streaming result, ~2,048 rows a chunk), so an
// export of millions of rows never holds them all: each chunk's values are plain JS (no bigint: integers and
// decimals become number, timestamps epoch ms), converted by the same function as `query`.
import type { DuckDBConnection } from '@duckdb/node-api';
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
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) return;
    const rows = chunk.convertRows(convertToPlainValue) as PlainValue[][];
    yield { columns, rows };
  }
}

// Maps streamed SQL chunks onto a sheet's columns by name (a column the SQL lacks is a clear error, found on
// the first chunk), so a report's .sql may select its fields in any order. SQL that selects exactly the
// columns in the sheet's order has its rows passed on as they are (no copy per row).
import { EtlError } from '../errors.js';
import type { StreamedRows } from '../warehouse/warehouse.js';
import type { CellInput, ColumnSpec } from './report-definition.js';

export async function* pickColumns(
  chunks: AsyncIterable<StreamedRows>,
  columns: readonly Pick<ColumnSpec, 'key'>[],
): AsyncGenerator<CellInput[][]> {
  let positions: number[] | undefined;
  for await (const chunk of chunks) {
    positions ??= columns.map((c) => {
      const at = chunk.columns.indexOf(c.key);
      if (at < 0)
        throw new EtlError(
          'report.column_missing',
          `The report's SQL returns no column "${c.key}" (it returns ${chunk.columns.join(', ')})`,
        );
      return at;
    });
    const at = positions;
    const asSelected = at.length === chunk.columns.length && at.every((p, i) => p === i);
    yield asSelected ? chunk.rows : chunk.rows.map((row) => at.map((i) => row[i]));
  }
}

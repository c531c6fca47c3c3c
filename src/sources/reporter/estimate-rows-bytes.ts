// Estimates the bytes rows take once DuckDB stages them (a 16-byte string header plus its UTF-8
// bytes, 8 bytes for any other value), so a window can be bounded by size as well as by session count:
// long question and answer texts, not the number of rows, are what fill the sync's memory pool.
// Runs over every row of every window: no array is made per row (a for-in over the fields, not
// Object.values, and no list of a window's rows).
const VALUE_BYTES = 8;
const STRING_HEADER_BYTES = 16;

/** Estimated staged bytes of rows of one table (every field of every row). */
export function estimateRowsBytes(rows: readonly object[]): number {
  let bytes = 0;
  for (const row of rows) bytes += estimateRowBytes(row);
  return bytes;
}

/** Estimated staged bytes of one row: the staging table's seq and every field. */
export function estimateRowBytes(row: object): number {
  let bytes = VALUE_BYTES;
  for (const key in row) bytes += estimateValueBytes((row as Record<string, unknown>)[key]);
  return bytes;
}

function estimateValueBytes(value: unknown): number {
  if (typeof value === 'string') return STRING_HEADER_BYTES + Buffer.byteLength(value);
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + estimateValueBytes(item), 16);
  return VALUE_BYTES;
}

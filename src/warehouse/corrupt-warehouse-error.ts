// Recognises DuckDB's errors for a damaged database file (a block checksum that does not match, a file that
// is not a DuckDB database) and turns them into an EtlError (warehouse.corrupt) that names the file and how
// to recover: the warehouse holds a copy of the platform's data, so a re-sync rebuilds it.
import { EtlError } from '../errors.js';

const CORRUPTION =
  /corrupt|checksum|not a valid duckdb|invalid (?:duckdb )?database file|failed to read database header/i;

/** Whether DuckDB's error says the database file itself is damaged (not locked, not a bad query). */
export function isCorruptionError(error: unknown): boolean {
  return error instanceof Error && !(error instanceof EtlError) && CORRUPTION.test(error.message);
}

/** warehouse.corrupt (exit 1): what happened to the file, and the two ways back. */
export function corruptWarehouseError(path: string, cause: unknown): EtlError {
  const said = cause instanceof Error ? cause.message : String(cause);
  return new EtlError(
    'warehouse.corrupt',
    `The warehouse file ${path} is damaged (or is not a DuckDB database) and cannot be read ` +
      `(DuckDB: ${said}).\n` +
      "Its data is a copy of the platform's, so it can be rebuilt:\n" +
      '  - restore the file from a backup, if you have one; or\n' +
      `  - move it away (mv ${path} ${path}.damaged; and its .wal file, if there is one) and run ` +
      '`reporter-etl sync --full`, which rebuilds it from the platform (REPORTER_HISTORY_DAYS of history; ' +
      '`sync --from ISO --to ISO` for older days). The run history (etl_runs) starts afresh.',
    { cause },
  );
}

// One explicit DuckDB transaction around a unit of work: BEGIN, the work, COMMIT; on any error ROLLBACK
// and throw the caller's wrapped error (the original kept as `cause`). Nothing of a failed unit remains.
import type { DuckDBConnection } from '@duckdb/node-api';

export async function runInTransaction<T>(
  connection: DuckDBConnection,
  work: () => Promise<T>,
  wrapError: (cause: unknown) => Error,
): Promise<T> {
  await connection.run('BEGIN TRANSACTION');
  try {
    const result = await work();
    await connection.run('COMMIT');
    return result;
  } catch (error) {
    try {
      await connection.run('ROLLBACK');
    } catch {
      // A failed COMMIT has already ended the transaction; there is nothing left to roll back.
    }
    throw wrapError(error);
  }
}

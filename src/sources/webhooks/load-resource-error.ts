// Tells a load that failed for want of a resource (DuckDB's memory limit, a full disk, an I/O error, a
// warehouse invalidated by one) from a statement the warehouse refused for a value it cannot take. Only the
// latter is a record's fault (etl_rejects); the former is never written against a record: the batch is
// halved, and a single record that still fails ends the load with webhooks.load_out_of_resources.
import { EtlError, errorChain } from '../../errors.js';
import { isOutOfMemory } from '../../warehouse/commit-window.js';

/** DuckDB's messages of a missing resource, whatever statement or COMMIT raised them. */
const RESOURCE_MESSAGES = [
  /\bNo space left on device\b/i,
  /\bDisk full\b/i,
  /^(TransactionContext Error: Failed to commit: )?IO Error\b/,
  /^FATAL Error\b/,
  /\bdatabase has been invalidated\b/i,
];

/** The error, or one of its causes, says that the warehouse lacked memory or disk, not that a value was wrong. */
export function isOutOfResources(error: unknown): boolean {
  return errorChain(error).some(
    (e) => isOutOfMemory(e) || RESOURCE_MESSAGES.some((pattern) => pattern.test(e.message)),
  );
}

/** The messages of the error and its causes, one after the other. */
function messagesOf(error: unknown): string {
  return errorChain(error)
    .map((e) => e.message)
    .join('\n');
}

/** The cause DuckDB gave, first line only (its advice on SET threads and memory_limit is not this tool's). */
function firstLineOf(error: unknown): string {
  let deepest = error;
  while (deepest instanceof Error && deepest.cause instanceof Error) deepest = deepest.cause;
  return String(deepest instanceof Error ? deepest.message : deepest).split('\n')[0]!;
}

/**
 * The load stopped at a batch of one record (or the spool offset alone) that the warehouse could not store
 * for want of memory or disk: what to change, and that the spool keeps everything for the next load.
 */
export function loadOutOfResourcesError(
  cause: unknown,
  spoolName: string,
  record: { receivedAt: number; bytes: number } | undefined,
): EtlError {
  const reason = firstLineOf(cause);
  // a database invalidated by a failed checkpoint says why further down ("Original error: ... failed to pin")
  const memory = /Out of Memory|could not allocate|failed to (allocate|pin)/i.test(messagesOf(cause));
  const what =
    record === undefined
      ? `the load of webhook spool ${spoolName}`
      : `a webhook request of ${record.bytes} bytes (received ${describeTime(record.receivedAt)}, spool ${spoolName})`;
  const advice = memory
    ? "raise DuckDB's memory limit (REPORTER_DUCKDB_MEMORY_LIMIT) or lower REPORTER_WEBHOOKS_LOAD_MAX_BYTES"
    : 'free space on the disk of the warehouse (REPORTER_DATA_DIR) and check it for I/O errors';
  return new EtlError(
    'webhooks.load_out_of_resources',
    `Could not store ${what}: the warehouse ran out of ${memory ? 'memory' : 'disk or I/O'} (${reason}). ` +
      `Nothing of it was rejected: the spool keeps it and the next load tries again; ${advice}.`,
    { kind: 'transient', cause },
  );
}

function describeTime(epochMs: number): string {
  return Number.isFinite(epochMs) && Math.abs(epochMs) <= 8.64e15
    ? new Date(epochMs).toISOString()
    : String(epochMs);
}

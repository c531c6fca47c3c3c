// A write that failed because the disk (or the user's quota) is full: DuckDB's "No space left on device" on
// the file or its .wal, Node's ENOSPC and EDQUOT, in the error or one of its causes. Such a failure is
// transient for the tool (exit 75, warehouse.no_space): nothing of the window was written, and once room is
// made the next run resumes from the last committed one.
import { EtlError, errorChain } from '../errors.js';

const NO_SPACE = [/\bNo space left on device\b/i, /\bDisk full\b/i, /\bDisk quota exceeded\b/i];
const NO_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT']);

/** Whether `error`, or one of its causes, says the disk or the quota is full. */
export function isOutOfSpace(error: unknown): boolean {
  return errorChain(error).some(
    (e) =>
      NO_SPACE_CODES.has(String((e as NodeJS.ErrnoException).code)) ||
      NO_SPACE.some((pattern) => pattern.test(e.message)),
  );
}

/**
 * The line that says the disk is full, of the error or its causes (DuckDB's "database has been invalidated"
 * names it on a later line, as the original error), else the error's first line.
 */
function noSpaceLine(cause: unknown): string {
  for (const e of errorChain(cause)) {
    const line = e.message.split('\n').find((l) => NO_SPACE.some((pattern) => pattern.test(l)));
    if (line !== undefined) return line.trim();
  }
  return String(cause instanceof Error ? cause.message : cause).split('\n')[0] ?? '';
}

/** The error of a warehouse write (`what` failed) for want of disk space: transient, saying what to do. */
export function outOfSpaceError(what: string, cause: unknown): EtlError {
  const said = noSpaceLine(cause);
  return new EtlError(
    'warehouse.no_space',
    `${what}: the disk of the warehouse (REPORTER_DATA_DIR) is full (${said}); nothing of it was written. ` +
      'Make room on that disk, then run the command again: a sync resumes from its last committed window',
    { kind: 'transient', cause },
  );
}

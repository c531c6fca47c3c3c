// Reads DuckDB's "file is locked" error: whether an open failed because another process holds the file,
// and which process that is. DuckDB says, e.g.: Could not set lock on file "/x.duckdb": Conflicting lock
// is held in /usr/bin/node (PID 4242) by user ann. The message is DuckDB's, so parsing is best effort.

export interface LockHolder {
  /** The holder's program as DuckDB names it (often a full path). */
  program: string;
  pid: number;
  user?: string;
}

const LOCK_ERROR = /Could not set lock on file|Conflicting lock is held|used by another process/i;
const HOLDER = /Conflicting lock is held in (.+?) \(PID (\d+)\)(?: by user (\S+?))?(?:[.\s]|$)/;

/** True when DuckDB refused to open a file because another process holds its lock. */
export function isLockError(error: unknown): boolean {
  return error instanceof Error && LOCK_ERROR.test(error.message);
}

/** The process named in DuckDB's lock error, or undefined when the message does not say. */
export function parseLockHolder(message: string): LockHolder | undefined {
  const match = HOLDER.exec(message);
  if (!match?.[1] || !match[2]) return undefined;
  const holder: LockHolder = { program: match[1], pid: Number(match[2]) };
  if (match[3]) holder.user = match[3];
  return holder;
}

/** "/usr/bin/node (PID 4242, user ann)" for messages; says plainly when the holder is unknown. */
export function describeLockHolder(holder: LockHolder | undefined): string {
  if (!holder) return 'another process (DuckDB did not say which one)';
  return `${holder.program} (PID ${holder.pid}${holder.user ? `, user ${holder.user}` : ''})`;
}

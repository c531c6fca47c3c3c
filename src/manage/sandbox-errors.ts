// The errors of an analyst's query in the sandbox (`sql`, and the --sql of label-*, pushgate send, kb eval,
// prompter ask), worded once for every command: its time limit passed, a writer needed the file, or DuckDB's
// memory ran out. DuckDB's own advice for the last (SET memory_limit, SET threads) is dropped: the sandbox
// locks its configuration, so the way out is the setting or a lighter query.
import { EtlError } from '../errors.js';

/** How long a sandboxed query may run (0: no limit), and the option of the command that changes it. */
export interface SandboxTimeLimit {
  ms: number;
  /** `--timeout` (sql) or `--sql-timeout` (the --sql commands). */
  option: string;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

export function queryTimeoutError(limit: SandboxTimeLimit): EtlError {
  const more = Math.max(60, Math.ceil((limit.ms / 1000) * 5));
  return new EtlError(
    'manage.query_timeout',
    `The query ran longer than its time limit, ${seconds(limit.ms)} (REPORTER_SQL_TIMEOUT_SECONDS, or ` +
      `${limit.option} S for one run), and was stopped; the warehouse was let go. Ask for less (a time ` +
      `range, a LIMIT, joins on keys rather than a cross product), or give it more time: ${limit.option} ` +
      `${more} (0: no limit).`,
    { kind: 'usage' },
  );
}

export function queryYieldedError(writerPid: number | undefined): EtlError {
  const writer = writerPid === undefined ? 'a writer' : `a writer (PID ${writerPid})`;
  return new EtlError(
    'manage.query_yielded_to_writer',
    `The query was stopped to let ${writer} have the warehouse file: a query holds the file and keeps ` +
      'writers (sync, webhooks, label-* --apply) out, so it gives way when one waits. Run it again, best ' +
      'once the writer is done (reporter-etl runs shows a running sync).',
    { kind: 'transient' },
  );
}

export function queryOutOfMemoryError(cause: unknown, memoryLimit: string | undefined): EtlError {
  const said = String(cause instanceof Error ? cause.message : cause).split('\n')[0]!;
  const now = memoryLimit === undefined ? '' : `, ${memoryLimit} here`;
  return new EtlError(
    'manage.query_out_of_memory',
    `The query needs more memory than DuckDB may use (REPORTER_DUCKDB_MEMORY_LIMIT${now}): ask for less ` +
      '(fewer columns or rows, a narrower time range, no cross product) or raise REPORTER_DUCKDB_MEMORY_LIMIT. ' +
      `DuckDB said: ${said}`,
    { kind: 'usage', cause },
  );
}

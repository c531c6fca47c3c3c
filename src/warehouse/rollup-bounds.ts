// The bounds of a window commit's rollup statements, found from the window's rows in JS. The generic statements
// (commit-rollups-sql.ts) read them from the staged tables: subqueries of a min and a max, and semi-joins with the
// touched quarters, which DuckDB plans again at every window (1–2.5 ms a statement, most of a small window's
// rollups). With the bounds as constants:
// - the message quarters, the transfers and the labelled messages' quarters are counted again over every quarter
//   hour from the staged messages' first to their last: each rollup row is what its quarter's raw rows give, so a
//   quarter counted again though no staged message falls in it comes out unchanged. Not when the window holds
//   labels of messages it does not hold (their quarters may lie anywhere), nor for messages of several projects;
// - the staged sessions' first and last start replace the subqueries that read them from stage_sessions.
import type { QuarterScope } from './commit-rollups-sql.js';
import type { WindowBatch } from './rows.js';

const QUARTER_MS = 900_000;

export interface RollupBounds {
  /** The staged messages' one project and quarter hours (epoch ms // 900,000), first to last. */
  messages?: { project: string; first: number; last: number };
  /** The staged sessions' first and last start, epoch ms. */
  sessionStarts?: { first: number; last: number };
}

/** The bounds the window's rows give; none where they do not give them exactly. */
export function findRollupBounds(batch: Pick<WindowBatch, 'messages' | 'sessions'>): RollupBounds {
  const bounds: RollupBounds = {};
  const times = spanOf(batch.messages.map((m) => m.timestamp));
  const projects = new Set(batch.messages.map((m) => m.project));
  // before 1970 JS's floor and DuckDB's integer division of a negative instant part ways: left to the generic
  if (times !== undefined && times.first >= 0 && projects.size === 1) {
    const [project] = projects;
    bounds.messages = {
      project: project!,
      first: Math.floor(times.first / QUARTER_MS),
      last: Math.floor(times.last / QUARTER_MS),
    };
  }
  const starts = spanOf(batch.sessions.map((s) => s.start_time));
  if (starts !== undefined) bounds.sessionStarts = starts;
  return bounds;
}

/** Every quarter hour of `span`'s project from its first to its last. */
export function spanScope(span: NonNullable<RollupBounds['messages']>): QuarterScope {
  const project = `'${span.project.replaceAll("'", "''")}'`;
  return {
    instants: (alias, column) =>
      `${alias}.project = ${project} AND ${column} >= to_timestamp(${span.first * 900}) ` +
      `AND ${column} < to_timestamp(${(span.last + 1) * 900})`,
    quarters: (alias) =>
      `${alias}.project = ${project} AND ${alias}.q BETWEEN ${span.first} AND ${span.last}`,
  };
}

/** The staged sessions' first and last start as the generic statements read them (replaced by constants here). */
export const FIRST_STAGED_START = '(SELECT min(start_time) FROM stage_sessions)';
export const LAST_STAGED_START = '(SELECT max(start_time) FROM stage_sessions)';

/** The statement with the staged sessions' first and last start as constants. */
export function boundSessionStarts(sql: string, starts: RollupBounds['sessionStarts']): string {
  if (starts === undefined) return sql;
  return sql
    .replaceAll(FIRST_STAGED_START, `make_timestamptz(${starts.first * 1000})`)
    .replaceAll(LAST_STAGED_START, `make_timestamptz(${starts.last * 1000})`);
}

/** The least and the greatest of whole milliseconds; undefined for none, or for a value that is not one. */
function spanOf(values: readonly number[]): { first: number; last: number } | undefined {
  if (values.length === 0) return undefined;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    if (!Number.isSafeInteger(value)) return undefined;
    if (value < first) first = value;
    if (value > last) last = value;
  }
  return { first, last };
}

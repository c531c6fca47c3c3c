// The set-based SQL of a batch commit (commit-batch.ts), over the TEMP stage_* tables: delete the stored rows by
// key, insert the staged rows deduplicated (the row staged last wins), append, move a state, add to a run's
// counters. Names come from the code's table specs, never from data; values are bound ($name).

/** DELETE of the target rows whose key appears in any of the given staging tables. */
export function deleteByKey(
  target: string,
  keys: readonly string[],
  stages: readonly string[],
  /** A column that never changes for a key (a session's start, a message's time) and is in the one stage: the
   * target is read only between its staged min and max, so zone maps skip the rest of a large table. */
  immutableTime?: string,
): string {
  const union = stages.map((s) => `SELECT ${keys.join(', ')} FROM ${s}`).join(' UNION ALL ');
  const match = keys.map((k) => `s.${k} = t.${k}`).join(' AND ');
  const range =
    immutableTime === undefined
      ? ''
      : ` AND t.${immutableTime} >= (SELECT min(${immutableTime}) FROM ${stages[0]}) ` +
        `AND t.${immutableTime} <= (SELECT max(${immutableTime}) FROM ${stages[0]})`;
  return `DELETE FROM ${target} AS t WHERE EXISTS (SELECT 1 FROM (${union}) AS s WHERE ${match})${range}`;
}

/**
 * The staged rows that win, one per key (the last staged): a semi-join on the keys' highest `seq`, which
 * streams the rows through. (A `QUALIFY row_number() OVER (PARTITION BY ...)` would materialise every column
 * of the stage, long texts and all, next to the stage and the inserted rows: with 1,000-character messages
 * that ran out of a 96 MB pool.)
 */
export function latestOfKey(alias: string, stage: string, keys: readonly string[]): string {
  return `${alias}seq IN (SELECT max(seq) FROM ${stage} GROUP BY ${keys.join(', ')})`;
}

/** INSERT of a staging table's rows, one per key (the last staged), with extra trailing values. */
export function insertLatest(
  target: string,
  stage: string,
  columns: readonly string[],
  keys: readonly string[],
  extra: Readonly<Record<string, string>> = {},
): string {
  const names = [...columns, ...Object.keys(extra)];
  const values = [...columns, ...Object.values(extra)];
  return (
    `INSERT INTO ${target} (${names.join(', ')}) SELECT ${values.join(', ')} FROM ${stage} ` +
    `WHERE ${latestOfKey('', stage, keys)}`
  );
}

/** INSERT of every staged row, in the order staged, with extra trailing values. */
export function insertAll(
  target: string,
  stage: string,
  columns: readonly string[],
  extra: Readonly<Record<string, string>> = {},
): string {
  const names = [...columns, ...Object.keys(extra)];
  const values = [...columns, ...Object.values(extra)];
  return `INSERT INTO ${target} (${names.join(', ')}) SELECT ${values.join(', ')} FROM ${stage} ORDER BY seq`;
}

export const DELETE_STATE = 'DELETE FROM etl_state WHERE project = $project AND key = $key';
export const INSERT_STATE =
  'INSERT INTO etl_state (project, key, value, updated_at) VALUES ($project, $key, $value, $updated_at)';

/**
 * UPDATE of a run's counters (each `column = column + $column`); with `beat`, the batch is also a heartbeat of
 * the run (src/warehouse/lease.ts): heartbeat_at moves forward to $seen_at, never back.
 */
export function addToRun(columns: readonly string[], beat: boolean): string {
  const sets = columns.map((c) => `${c} = ${c} + $${c}`);
  if (beat) sets.push('heartbeat_at = greatest(coalesce(heartbeat_at, $seen_at), $seen_at)');
  return `UPDATE etl_runs SET ${sets.join(', ')} WHERE run_id = $run_id`;
}

// The analyst's side of the label write-back: checks that --sql is one SELECT returning the expected id
// column (session_id or question_id, text), then runs it on the warehouse and sorts the ids into those the
// warehouse does not know, those it already shows with the label, and the candidates to write.
// Invariant: nothing here talks to the platform, so a bad query is refused before any request.
import { EtlError, UsageError } from '../errors.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import {
  describeQuery,
  PARSE_QUERY,
  selectMessageTargets,
  selectSessionTargets,
} from './label-writes-sql.js';

export type LabelTarget = 'session' | 'message';

/** The column the query must return for each target, and the table it names. */
export const TARGET_COLUMN = { session: 'session_id', message: 'question_id' } as const;
const EXAMPLE = {
  session: "select session_id from sessions where channel_type = 'telegram' and question_count > 20",
  message: "select question_id from messages where nlp_class = '/CatchAll' and confidence < 0.2",
} as const;

export interface TargetRow {
  id: string;
  /** Session start_time or message timestamp (epoch ms). */
  time: number;
  /** The session (for a message: its session). */
  sessionId: string;
}

export interface TargetSelection {
  /** Distinct non-null ids the query returned. */
  selected: number;
  /** Ids the warehouse does not hold for this project: never written. */
  unknown: string[];
  /** Ids the warehouse already shows with the label. */
  alreadyLabelled: number;
  /** The rest, by time then id. */
  candidates: TargetRow[];
}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^Warehouse query failed: /, '').trim();
}

/** The query without surrounding blanks and trailing semicolons. */
export function cleanQuery(query: string): string {
  return query.trim().replace(/[;\s]+$/, '');
}

/**
 * Refuses (UsageError) a query that is not exactly one SELECT, does not run on the warehouse, or does not
 * return the target's id column as text. Returns the cleaned query.
 */
export async function checkTargetQuery(
  warehouse: Warehouse,
  query: string,
  target: LabelTarget,
): Promise<string> {
  const column = TARGET_COLUMN[target];
  const sql = cleanQuery(query);
  const hint = `e.g. --sql "${EXAMPLE[target]}"`;
  if (sql === '') throw new UsageError(`--sql is empty: give a SELECT returning ${column}, ${hint}`);
  let parsed: { error?: boolean; error_type?: string; error_message?: string; statements?: unknown[] };
  try {
    const rows = await warehouse.query(PARSE_QUERY, { sql });
    parsed = JSON.parse(String(rows[0]?.['parsed'] ?? '{}'));
  } catch {
    // no json extension to parse with: refuse what could end the subquery below and start a statement
    if (sql.includes(';'))
      throw new UsageError(`--sql must be one SELECT without ';'; ${hint}`, 'manage.bad_query');
    parsed = {};
  }
  if (parsed.error) {
    const what =
      parsed.error_type === 'parser'
        ? `does not parse (${parsed.error_message})`
        : `is not a SELECT (${parsed.error_message}): the query only chooses rows, it is never run for an effect`;
    throw new UsageError(`--sql ${what}; ${hint}`, 'manage.bad_query');
  }
  if (Array.isArray(parsed.statements) && parsed.statements.length !== 1)
    throw new UsageError(
      `--sql holds ${parsed.statements.length} statements: give exactly one SELECT; ${hint}`,
      'manage.bad_query',
    );
  let columns: { name: string; type: string }[];
  try {
    const rows = await warehouse.query(describeQuery(sql));
    columns = rows.map((r) => ({ name: String(r['column_name']), type: String(r['column_type']) }));
  } catch (cause) {
    if (cause instanceof EtlError && cause.code !== 'warehouse.query_failed') throw cause;
    throw new UsageError(
      `--sql fails on the warehouse: ${reason(cause)}; ${hint} (tables: reporter-etl README, "Warehouse tables")`,
      'manage.bad_query',
    );
  }
  const matching = columns.filter((c) => c.name.toLowerCase() === column);
  if (matching.length === 0)
    throw new UsageError(
      `--sql returns ${columns.map((c) => c.name).join(', ') || 'no column'}; it must return a column named ${column} (the ids to label), ${hint}`,
      'manage.bad_query',
    );
  if (matching.length > 1)
    throw new UsageError(
      `--sql returns ${matching.length} columns named ${column}: keep one (alias the others)`,
      'manage.bad_query',
    );
  const type = matching[0]!.type;
  if (type !== 'VARCHAR')
    throw new UsageError(
      `--sql returns ${column} as ${type}; ids are text (VARCHAR): select ${column} from ${target === 'session' ? 'sessions' : 'messages'}`,
      'manage.bad_query',
    );
  return sql;
}

/** Runs the checked query and sorts its ids (see TargetSelection). */
export async function selectLabelTargets(
  warehouse: Warehouse,
  request: { target: LabelTarget; project: string; query: string; labelId: number },
): Promise<TargetSelection> {
  const sql =
    request.target === 'session' ? selectSessionTargets(request.query) : selectMessageTargets(request.query);
  let rows: Awaited<ReturnType<Warehouse['query']>>;
  try {
    rows = await warehouse.query(sql, { project: request.project, label_id: request.labelId });
  } catch (cause) {
    if (cause instanceof EtlError && cause.code !== 'warehouse.query_failed') throw cause;
    throw new UsageError(`--sql fails on the warehouse: ${reason(cause)}`, 'manage.bad_query');
  }
  const selection: TargetSelection = {
    selected: rows.length,
    unknown: [],
    alreadyLabelled: 0,
    candidates: [],
  };
  for (const row of rows) {
    const id = String(row['id']);
    if (row['time'] === null || row['session_id'] === null) selection.unknown.push(id);
    else if (row['labelled'] === true) selection.alreadyLabelled++;
    else selection.candidates.push({ id, time: Number(row['time']), sessionId: String(row['session_id']) });
  }
  return selection;
}

// The analyst's side of the label write-back: checks that --sql is one SELECT returning the expected id
// column (session_id or question_id, text), then runs it in the read-only sandbox on the warehouse file and
// sorts the ids into those the warehouse does not know, those it already shows with the label, and the
// candidates to write. Invariant: nothing here talks to the platform, so a bad query is refused first.
import { EtlError, UsageError } from '../errors.js';
import type { PlainRow } from '../warehouse/warehouse.js';
import {
  describeQuery,
  PARSE_QUERY,
  selectMessageTargets,
  selectSessionTargets,
} from './label-writes-sql.js';
import type { QuerySandbox } from './use-query-sandbox.js';

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

/** DuckDB's refusal of what the sandbox keeps out of reach (a file, a URL, an extension). */
const PERMISSION =
  /Permission Error: (.*?)(?: - file system operations are disabled by configuration)?(?:\n|$)/;

function refuseOutside(error: unknown, hint: string): void {
  const match = PERMISSION.exec(error instanceof Error ? error.message : String(error));
  if (match)
    throw new UsageError(
      `--sql may read only the warehouse's tables: files, URLs and extensions are out of its reach (${match[1]}); ${hint}`,
      'manage.bad_query',
    );
}

/**
 * DuckDB's binder or catalog refusing a function the sandbox does not offer (read_text as a scalar, getenv):
 * said in our words, with DuckDB's first line. A missing table or column stays "fails on the warehouse".
 */
function refuseUnavailableFunction(error: unknown, hint: string): void {
  const firstLine = reason(error).split('\n')[0]!.trim();
  if (/^(?:Binder|Catalog) Error: .*\bfunction\b/i.test(firstLine))
    throw new UsageError(
      `--sql: the query cannot run in the sandbox (it may read only the warehouse's tables; no files, URLs or environment): ${firstLine}; ${hint}`,
      'manage.bad_query',
    );
}

/**
 * Refuses (UsageError) a query that is not exactly one SELECT, reaches outside the warehouse, does not run on
 * it, or does not return the target's id column as text. Returns the cleaned query. Run on the sandbox.
 */
export function checkTargetQuery(sandbox: QuerySandbox, query: string, target: LabelTarget): Promise<string> {
  return checkSelectQuery(sandbox, query, {
    column: TARGET_COLUMN[target],
    example: EXAMPLE[target],
    table: target === 'session' ? 'sessions' : 'messages',
    meaning: 'the ids to label',
  });
}

/**
 * The checks of checkTargetQuery for any --sql that must return a text `column` (e.g. `text` for the Prompter's
 * questions): one SELECT, inside the warehouse, runs on it, the column present once and VARCHAR.
 */
export async function checkSelectQuery(
  sandbox: QuerySandbox,
  query: string,
  expect: { column: string; example: string; table: string; meaning: string },
): Promise<string> {
  const { column } = expect;
  const sql = cleanQuery(query);
  const hint = `e.g. --sql "${expect.example}"`;
  if (sql === '') throw new UsageError(`--sql is empty: give a SELECT returning ${column}, ${hint}`);
  let statements: number;
  try {
    statements = await sandbox.countStatements(sql);
  } catch (cause) {
    if (cause instanceof EtlError) throw cause; // the sandbox's own: its time limit, a writer, memory
    throw new UsageError(
      `--sql does not parse (${reason(cause).replace(/^Failed to extract statements: /, '')}); ${hint}`,
      'manage.bad_query',
    );
  }
  if (statements !== 1)
    throw new UsageError(
      `--sql holds ${statements} statements: give exactly one SELECT; ${hint}`,
      'manage.bad_query',
    );
  let parsed: { error?: boolean; error_type?: string; error_message?: string };
  try {
    const rows = await sandbox.query(PARSE_QUERY, { sql });
    parsed = JSON.parse(String(rows[0]?.['parsed'] ?? '{}'));
  } catch (cause) {
    if (cause instanceof EtlError) throw cause;
    parsed = {}; // no json extension to tell: the read-only sandbox refuses a write all the same
  }
  if (parsed.error) {
    if (parsed.error_type === 'parser')
      throw new UsageError(`--sql does not parse (${parsed.error_message}); ${hint}`, 'manage.bad_query');
    const keyword = /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase();
    const article = /^[AEIOU]/.test(keyword ?? '') ? 'an' : 'a';
    const what = keyword && keyword !== 'WITH' ? ` (it is ${article} ${keyword} statement)` : '';
    throw new UsageError(
      `--sql is not a SELECT${what}: the query only chooses rows, it is never run for an effect (no writes, COPY, ATTACH, INSTALL, SET or PRAGMA); ${hint}`,
      'manage.bad_query',
    );
  }
  let columns: { name: string; type: string }[];
  try {
    const rows = await sandbox.query(describeQuery(sql));
    columns = rows.map((r) => ({ name: String(r['column_name']), type: String(r['column_type']) }));
  } catch (cause) {
    if (cause instanceof EtlError && cause.code !== 'warehouse.query_failed') throw cause;
    refuseOutside(cause, hint);
    refuseUnavailableFunction(cause, hint);
    throw new UsageError(
      `--sql fails on the warehouse: ${reason(cause)}; ${hint} (tables: reporter-etl docs/warehouse-tables.md)`,
      'manage.bad_query',
    );
  }
  const matching = columns.filter((c) => c.name.toLowerCase() === column);
  if (matching.length === 0)
    throw new UsageError(
      `--sql returns ${columns.map((c) => c.name).join(', ') || 'no column'}; it must return a column named ${column} (${expect.meaning}), ${hint}`,
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
      `--sql returns ${column} as ${type}; it must be text (VARCHAR): select ${column} from ${expect.table}`,
      'manage.bad_query',
    );
  return sql;
}

/** Runs the checked query and sorts its ids (see TargetSelection). */
export async function selectLabelTargets(
  sandbox: QuerySandbox,
  request: { target: LabelTarget; project: string; query: string; labelId: number },
): Promise<TargetSelection> {
  const sql =
    request.target === 'session' ? selectSessionTargets(request.query) : selectMessageTargets(request.query);
  let rows: PlainRow[];
  try {
    rows = await sandbox.query(sql, { project: request.project, label_id: request.labelId });
  } catch (cause) {
    if (cause instanceof EtlError && cause.code !== 'warehouse.query_failed') throw cause;
    refuseOutside(cause, `e.g. --sql "${EXAMPLE[request.target]}"`);
    refuseUnavailableFunction(cause, `e.g. --sql "${EXAMPLE[request.target]}"`);
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

/**
 * Runs a query `checkSelectQuery` accepted, with at most `limit` rows: a failure on the warehouse is the
 * analyst's (manage.bad_query), any other error is the tool's.
 */
export async function runSelectQuery(
  sandbox: QuerySandbox,
  sql: string,
  limit: number | undefined,
): Promise<Record<string, unknown>[]> {
  try {
    return await sandbox.query(
      `SELECT * FROM (${sql}) AS q${limit === undefined ? '' : ` LIMIT ${Math.floor(limit)}`}`,
    );
  } catch (cause) {
    if (cause instanceof EtlError && cause.code !== 'warehouse.query_failed') throw cause;
    throw new UsageError(`--sql fails on the warehouse: ${(cause as Error).message}`, 'manage.bad_query');
  }
}

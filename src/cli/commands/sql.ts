// `reporter-etl sql "<query>"`: one read-only SQL statement over the warehouse, printed as a table, CSV or
// JSON, with nothing else installed. It runs in the same sandbox as the label commands' --sql (READ_ONLY, no
// files, URLs, extensions or settings), so it can neither change the warehouse nor read anything beside it.
import { readFileSync } from 'node:fs';
import type { Json } from '@duckdb/node-api';
import { CONFIG_DEFAULTS as D, loadConfig } from '../../config.js';
import { EtlError, UsageError } from '../../errors.js';
import { formatTable } from '../../manage/format-table.js';
import { useQuerySandboxAt } from '../../manage/use-query-sandbox.js';
import { configuredWarehouse } from '../../manage/use-warehouse.js';
import { neutraliseCsvFormula } from '../../text/neutralise-csv-formula.js';
import { enumOption, intOption, parseCommandArgs } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { requireWarehouse } from '../require-warehouse.js';
import { sqlTimeLimit, sqlTimeoutHelp } from '../sql-time-limit.js';

const FORMATS = ['table', 'csv', 'json'] as const;
type Format = (typeof FORMATS)[number];

const HELP = `reporter-etl sql "<query>" [--format table|csv|json] [--max-rows N] [--max-width N] [--timeout S]
reporter-etl sql - < query.sql

Runs one SQL statement (DuckDB's dialect) over the warehouse and prints its rows: what the README's and
docs' examples use, with nothing else installed. Read-only: the query cannot change the warehouse, read
files or URLs, or load extensions; it sees the tables of docs/warehouse-tables.md. It waits for a running
sync's commit (at most REPORTER_LOCK_WAIT_SECONDS) like every read command. While it runs it holds the
warehouse file, so it stops at its time limit, and as soon as a writer (sync, webhooks, label-* --apply)
waits for the file: run it again then (csv and json may have printed some rows already).

Options:
  --format F       table (default), csv (RFC 4180, a header line, every row) or json (an array of
                   objects, every row); timestamps are ISO 8601 UTC, big integers beyond 2^53 are text;
                   in csv a text that starts with = + - @, a tab or a carriage return (and is not a
                   number) gets a leading ' so a spreadsheet shows it rather than runs it as a formula
                   (OWASP's advice on CSV injection); json is exact
  --json           the same as --format json
  --max-rows N     table: at most N rows (default 100; 0 = all); csv and json print every row
  --max-width N    table: longest cell in characters (default 40; longer text ends with …)
${sqlTimeoutHelp('--timeout', 19)}
  -                read the query from stdin

Reads REPORTER_DATA_DIR (default ${D.REPORTER_DATA_DIR}); no token is needed.

Exit codes: 0 ok, 2 the query was refused (its DuckDB message is printed), ran out of its time limit or of
REPORTER_DUCKDB_MEMORY_LIMIT, or there is no warehouse; 75 a writer held the warehouse longer than
REPORTER_LOCK_WAIT_SECONDS, or needed it while the query ran (run it again).

Examples:
  reporter-etl sql "select channel_type, count(*) as sessions from sessions group by 1 order by 2 desc"
  reporter-etl sql --format csv "select * from messages where timestamp >= now() - interval 1 day" > day.csv
  reporter-etl sql --json "select status, count(*) as runs from etl_runs group by 1"
`;

export const sqlCommand: Command = {
  name: 'sql',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        format: { type: 'string' },
        json: { type: 'boolean' },
        'max-rows': { type: 'string' },
        'max-width': { type: 'string' },
        timeout: { type: 'string' },
      },
      'allow',
    );
    if (positionals.length > 1)
      throw new UsageError(
        `sql takes one query, got ${positionals.length} arguments: quote the query, sql "select ..."`,
      );
    const format: Format = values.json ? 'json' : enumOption(values.format, 'format', FORMATS, 'table');
    if (values.json && values.format !== undefined && values.format !== 'json')
      throw new UsageError(`--json and --format ${values.format} disagree: give one of them`);
    const maxRows = intOption(values['max-rows'], 'max-rows', 100, 0);
    const maxWidth = intOption(values['max-width'], 'max-width', 40, 4);
    const query = readQuery(positionals[0]);

    const config = loadConfig(process.env, { requireToken: false });
    requireWarehouse(config, 'sql');
    const log = createCommandLogger(config);
    const timeLimit = sqlTimeLimit(values.timeout, '--timeout', config);
    const useSandbox = useQuerySandboxAt({ ...configuredWarehouse(config, 'read', log), timeLimit });
    return useSandbox(async (sandbox) => {
      const statements = await sandbox.countStatements(query).catch((cause: unknown) => {
        throw refused(cause);
      });
      if (statements !== 1)
        throw new UsageError(
          `sql runs one statement at a time; this text has ${statements} (separate runs, or a WITH query)`,
        );
      const { columns, chunks } = await sandbox.stream(query).catch((cause: unknown) => {
        throw refused(cause);
      });
      const names = uniqueNames(columns);
      try {
        // each chunk waits for stdout to take the previous ones: rows are never piled up in memory
        const paced = pacedChunks(chunks, () => sandbox.waitForOutput(io.drained?.() ?? Promise.resolve()));
        await (format === 'table'
          ? printTable(io, names, paced, maxRows, maxWidth)
          : format === 'csv'
            ? printCsv(io, names, paced)
            : printJson(io, names, paced));
      } catch (cause) {
        throw refused(cause);
      }
      return 0;
    });
  },
};

/** The chunks, each handed out once `drained` resolved (the output took the rows printed before it). */
async function* pacedChunks<T>(chunks: AsyncIterable<T>, drained: () => Promise<void>): AsyncIterable<T> {
  for await (const chunk of chunks) {
    await drained();
    yield chunk;
  }
}

function readQuery(arg: string | undefined): string {
  if (arg === undefined)
    throw new UsageError(
      'sql needs a query: reporter-etl sql "select count(*) from sessions" (or - for stdin)',
    );
  const text = arg === '-' ? readFileSync(0, 'utf8') : arg;
  if (text.trim() === '') throw new UsageError('the query is empty');
  return text;
}

/** DuckDB's refusal in our words; the sandbox's own errors (time limit, a writer waiting, memory) as they are. */
function refused(cause: unknown): EtlError {
  if (cause instanceof EtlError) return cause;
  const message = String(cause instanceof Error ? cause.message : cause);
  const hint = /read-only|read only/i.test(message)
    ? 'sql only reads: the label and platform commands are the ways to change data'
    : /Permission Error|external access|enable_external_access/i.test(message)
      ? 'sql reads only the warehouse: no files, URLs or extensions'
      : /Catalog Error/.test(message)
        ? 'the tables: reporter-etl sql "show tables" (docs/warehouse-tables.md describes them)'
        : '';
  return new EtlError('sql.query_failed', `The query was refused: ${message}${hint ? `\n${hint}` : ''}`, {
    kind: 'usage',
    cause,
  });
}

/** Column names made unique (`select 1 as a, 2 as a` → a, a_2) so that JSON objects keep every column. */
function uniqueNames(columns: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return columns.map((name) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name}_${n}`;
  });
}

async function printTable(
  io: CommandIo,
  names: readonly string[],
  chunks: AsyncIterable<Json[][]>,
  maxRows: number,
  maxWidth: number,
): Promise<void> {
  const rows: Record<string, Json>[] = [];
  let more = false;
  outer: for await (const chunk of chunks) {
    for (const values of chunk) {
      if (maxRows > 0 && rows.length === maxRows) {
        more = true;
        break outer;
      }
      rows.push(Object.fromEntries(names.map((name, i) => [name, values[i] ?? null])));
    }
  }
  if (rows.length === 0) {
    io.out(`(no rows; columns: ${names.join(', ')})`);
    return;
  }
  for (const line of formatTable(rows, { columns: names, maxWidth, indent: '' })) io.out(line);
  io.out(
    more
      ? `(the first ${rows.length} rows; more not shown: --max-rows 0 for all, or --format csv)`
      : `(${rows.length} ${rows.length === 1 ? 'row' : 'rows'})`,
  );
}

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; null is empty; a text a
 * spreadsheet would run as a formula gets a leading `'` (neutralise-csv-formula.ts).
 */
function csvField(value: Json): string {
  if (value === null) return '';
  const text =
    typeof value === 'object'
      ? JSON.stringify(value)
      : typeof value === 'string'
        ? neutraliseCsvFormula(value)
        : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

async function printCsv(
  io: CommandIo,
  names: readonly string[],
  chunks: AsyncIterable<Json[][]>,
): Promise<void> {
  io.out(names.map(csvField).join(','));
  for await (const chunk of chunks) for (const values of chunk) io.out(values.map(csvField).join(','));
}

/** A JSON array, one object per line; each line is printed when the next row arrives (for its comma). */
async function printJson(
  io: CommandIo,
  names: readonly string[],
  chunks: AsyncIterable<Json[][]>,
): Promise<void> {
  let held: string | undefined;
  io.out('[');
  for await (const chunk of chunks)
    for (const values of chunk) {
      if (held !== undefined) io.out(`  ${held},`);
      held = JSON.stringify(Object.fromEntries(names.map((name, i) => [name, values[i] ?? null])));
    }
  if (held !== undefined) io.out(`  ${held}`);
  io.out(']');
}

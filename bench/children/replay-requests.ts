// The transfer floor: replays recorded requests (NDJSON of {method, url, body}) against a base URL with a
// bare undici Pool, `concurrency` requests in flight, every body read to the end and discarded. Prints
// {requests, bytes, wallMs, failures} as JSON. Usage: replay-requests.js FILE BASE_URL TOKEN CONCURRENCY [PARSE]
// With PARSE (the parse floor), each body is also parsed and the result dropped: `json` decodes it from
// UTF-8 and runs JSON.parse (what the sync's JavaScript does first with a page), `duckdb` hands its bytes
// to DuckDB on one thread, which checks that they are UTF-8 and parses them as JSON (what a design handing
// the pages to DuckDB's JSON reader would do first).
// The sync's statuses report tasks: their waits (async/events long polls, task polls) are left out, being
// the platform's latency, not transfer; a report file is asked again while it answers 404 (its task, created
// by the replay, is still being written), a task's DELETE waits for its file, and with PARSE a file's CSV is
// decoded from UTF-8 and split into records of fields (split-csv.ts, in JavaScript under either PARSE: the
// least any reader of a CSV file pays), not parsed as JSON. The waits' count is printed as `waitsLeftOut`,
// the CSV records split as `csvRecords`. The replay itself (pool, waits, report files) is ../replay-pool.ts.
import { DuckDBInstance } from '@duckdb/node-api';
import { type Recorded, readRecordedRequests, replayRequests } from '../replay-pool.js';
import { splitCsv } from '../split-csv.js';

const PARSERS = ['json', 'duckdb'];

const [file, baseUrl, token, concurrencyText, parse] = process.argv.slice(2);
if (!file || !baseUrl || !token || !concurrencyText || (parse !== undefined && !PARSERS.includes(parse))) {
  process.stderr.write(`usage: replay-requests.js FILE BASE_URL TOKEN CONCURRENCY [${PARSERS.join('|')}]\n`);
  process.exit(2);
}
const concurrency = Number(concurrencyText);
const recorded = readRecordedRequests(file);
let csvRecords = 0;

const duckdb =
  parse === 'duckdb'
    ? await (await DuckDBInstance.create(':memory:', { threads: '1' })).connect()
    : undefined;
const parseDuckdb = await duckdb?.prepare('SELECT json_valid(decode($1)) AS ok');
/** The DuckDB parses one at a time: the workers share one prepared statement (bind, then run). */
let duckdbTurn: Promise<unknown> = Promise.resolve();

/** A body parsed as the PARSE argument says; throws when it is not JSON. */
async function parseBody(body: Buffer): Promise<void> {
  if (body.length === 0) return;
  if (parseDuckdb === undefined) {
    JSON.parse(body.toString('utf8'));
    return;
  }
  const statement = parseDuckdb;
  const parsed = duckdbTurn.then(async () => {
    statement.bindBlob(1, body);
    return (await statement.runAndReadAll()).getRows()[0]?.[0];
  });
  duckdbTurn = parsed.catch(() => undefined);
  if ((await parsed) !== true) throw new Error('DuckDB did not read a body as JSON');
}

/** With PARSE, each answer's body parsed (a report file's CSV split into records); without, only counted. */
async function parseAnswer(
  _request: Recorded,
  status: number,
  body: Buffer,
  isReportFile: boolean,
): Promise<void> {
  // a report file is CSV: decoded and split into fields, not parsed as JSON
  if (isReportFile) {
    if (status < 300) csvRecords += splitCsv(body.toString('utf8'));
  } else await parseBody(body);
}

const { requests, bytes, wallMs, failures, waitsLeftOut } = await replayRequests(
  recorded,
  { baseUrl, token, concurrency },
  parse === undefined ? undefined : parseAnswer,
);
duckdb?.closeSync();
process.stdout.write(`${JSON.stringify({ requests, bytes, wallMs, failures, waitsLeftOut, csvRecords })}\n`);

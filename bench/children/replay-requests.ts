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
// the CSV records split as `csvRecords`.
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { Pool } from 'undici';
import { splitCsv } from '../split-csv.js';

const PARSERS = ['json', 'duckdb'];

interface Recorded {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: string;
}

const [file, baseUrl, token, concurrencyText, parse] = process.argv.slice(2);
if (!file || !baseUrl || !token || !concurrencyText || (parse !== undefined && !PARSERS.includes(parse))) {
  process.stderr.write(`usage: replay-requests.js FILE BASE_URL TOKEN CONCURRENCY [${PARSERS.join('|')}]\n`);
  process.exit(2);
}
const concurrency = Number(concurrencyText);
const recorded = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line.length > 0)
  .map((line) => JSON.parse(line) as Recorded);
const isWait = (r: Recorded) =>
  r.url.includes('/async/events') || (r.method === 'GET' && r.url.includes('/reports/tasks/'));
const requests = recorded.filter((r) => !isWait(r));
const waitsLeftOut = recorded.length - requests.length;
const REPORT_FILE = /\/reports\/files\/([^/?]+)\//;
const REPORT_TASK = /\/reports\/tasks\/([^/?]+)/;
/** Each report file's download, by task id: its DELETE waits for it. */
const downloads = new Map<string, Promise<void>>();

const pool = new Pool(baseUrl, { connections: concurrency, keepAliveTimeout: 10_000 });
let next = 0;
let bytes = 0;
let failures = 0;
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

async function send(r: Recorded) {
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${token}` };
  if (r.body !== undefined) headers['content-type'] = 'application/json';
  return pool.request({
    method: r.method,
    path: r.url,
    headers,
    ...(r.body === undefined ? {} : { body: r.body }),
  });
}

/** A report file, asked again while its task is still being written (404), at most for 30 s. */
async function sendReportFile(r: Recorded) {
  for (let attempt = 0; ; attempt++) {
    const response = await send(r);
    if (response.statusCode !== 404 || attempt >= 1_500) return response;
    await response.body.dump();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function replayOne(r: Recorded): Promise<void> {
  const file = REPORT_FILE.exec(r.url)?.[1];
  const task = r.method === 'DELETE' ? REPORT_TASK.exec(r.url)?.[1] : undefined;
  if (task !== undefined) await downloads.get(task);
  const response = file !== undefined ? await sendReportFile(r) : await send(r);
  if (parse === undefined) for await (const chunk of response.body) bytes += (chunk as Buffer).length;
  else {
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    bytes += body.length;
    // a report file is CSV: decoded and split into fields, not parsed as JSON
    if (file !== undefined) {
      if (response.statusCode < 300) csvRecords += splitCsv(body.toString('utf8'));
    } else await parseBody(body);
  }
  if (response.statusCode >= 300) failures++;
}

async function worker(): Promise<void> {
  for (let n = next++; n < requests.length; n = next++) {
    const r = requests[n]!;
    const file = REPORT_FILE.exec(r.url)?.[1];
    const done = replayOne(r);
    if (file !== undefined)
      downloads.set(
        file,
        done.catch(() => undefined),
      );
    await done;
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, () => worker()));
const wallMs = performance.now() - started;
await pool.close();
duckdb?.closeSync();
process.stdout.write(
  `${JSON.stringify({ requests: requests.length, bytes, wallMs, failures, waitsLeftOut, csvRecords })}\n`,
);

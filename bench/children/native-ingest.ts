// The native-floor prototype: the full sync's recorded requests replayed as replay-requests.ts replays them
// (both by ../replay-pool.ts: same concurrency, the statuses report files asked again while 404, a task's
// DELETE after its file, the waits left out), but each sessions/messages/clients page's bytes are handed to
// DuckDB (one connection, one thread, 64 MB like the sync), which parses them and INSERTs their records into
// the real tables of an empty warehouse, mapped and checked in SQL (native-ingest-sql.ts): no JSON.parse of
// the pages, no per-record JS objects, no appender. The statuses report CSV files are read with
// src/sources/reporter/pick-csv-columns.ts as the sync reads them (the few messages/by-client answers of a window without
// a report are JSON.parse-d, as the sync does); each messages INSERT hands back (RETURNING) the question id,
// session and channel of its rows, which JS keeps for the status channels as the sync's statuses logic does;
// the statuses are set at the end in one UPDATE (and their history rows inserted). One transaction per page,
// a CHECKPOINT at the end. No staging of rows, no delete by key: the warehouse is empty, so this is a lower
// bound of that design.
// The pages of windows the sync split (their page 0 read, then dropped) are read and not ingested.
// Usage: native-ingest.js FILE BASE_URL TOKEN CONCURRENCY TARGET.duckdb [staged|reparse] [PAGES_PER_TRANSACTION]
// (staged: each page parsed once into a TEMP table of records; reparse: each INSERT parses the bytes again,
// about 3 times the CPU; PAGES_PER_TRANSACTION: 1 by default). BENCH_NATIVE_CHECKPOINT_THRESHOLD sets
// DuckDB's checkpoint_threshold (default 16 MB, as in the sync).
// Prints {requests, bytes, wallMs, cpuMs, rows: {table: n}, failedChecks, pages, statuses, duckdbMs} as JSON
// (duckdbMs: wall ms of the DuckDB statements by what they do, waits for the event loop included).
import {
  type DuckDBConnection,
  DuckDBInstance,
  type DuckDBPreparedStatement,
  LIST,
  listValue,
  VARCHAR,
} from '@duckdb/node-api';
import { STATUS_CHANNELS } from '../../src/sources/reporter/map-records.js';
import { pickCsvColumns } from '../../src/sources/reporter/pick-csv-columns.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import {
  APPLY_STATUSES_SQL,
  createStageSql,
  INSERT_HISTORY_SQL,
  type PageKind,
  pageSql,
  stagePageSql,
  stageTable,
} from '../native-ingest-sql.js';
import { type Recorded, readRecordedRequests, replayRequests } from '../replay-pool.js';
import { SYNCED_ROW_TABLES } from '../synced-row-tables.js';

const KINDS: readonly PageKind[] = ['sessions', 'messages', 'clients'];

const [file, baseUrl, token, concurrencyText, target, modeText = 'staged', groupText = '1'] =
  process.argv.slice(2);
const modeOk = ['staged', 'reparse'].includes(modeText) && /^[1-9]\d*$/.test(groupText);
if (!file || !baseUrl || !token || !concurrencyText || !target || !modeOk) {
  process.stderr.write(
    'usage: native-ingest.js FILE BASE_URL TOKEN CONCURRENCY TARGET.duckdb [staged|reparse] [PAGES_PER_TRANSACTION]\n',
  );
  process.exit(2);
}
const pagesPerTransaction = Number(groupText);
const mode = modeText as 'staged' | 'reparse';
const concurrency = Number(concurrencyText);
const recorded = readRecordedRequests(file);
const { requests } = recorded;
const PAGE = /\/reporter\/(sessions|messages|clients)\/filter\?/;

/** The window [from, to] of a filter read, from its body's first DATE_TIME_RANGE. */
function windowOf(r: Recorded): string | undefined {
  const range = (JSON.parse(r.body ?? '{}') as { filters?: { from?: string; to?: string }[] }).filters?.find(
    (f) => f.from !== undefined,
  );
  return range === undefined ? undefined : `${range.from}|${range.to}`;
}

/** Windows the sync split: another window read lies inside them (their page 0 was read, then dropped). */
function splitWindows(all: readonly Recorded[]): Set<string> {
  const windows = new Set(all.filter((r) => PAGE.test(r.url)).flatMap((r) => windowOf(r) ?? []));
  const bounds = [...windows].map((w) => w.split('|').map((t) => Date.parse(t)) as [number, number]);
  return new Set(
    [...windows].filter((_window, n) => {
      const [from, to] = bounds[n]!;
      return bounds.some(([f, t], m) => m !== n && f >= from && t <= to);
    }),
  );
}
const dropped = splitWindows(requests);

// the empty warehouse, schema and all, as the sync would find it
await (await openWarehouse({ path: target })).close();
const instance = await DuckDBInstance.create(target, { threads: '1', memory_limit: '64MB' });
const connection = await instance.connect();
// a lever to measure: DuckDB's automatic checkpoints (past 16 MB of WAL, as in the sync) or only the last one
const checkpointThreshold = process.env['BENCH_NATIVE_CHECKPOINT_THRESHOLD'];
if (checkpointThreshold !== undefined)
  await connection.run(`SET checkpoint_threshold = '${checkpointThreshold.replaceAll("'", "''")}'`);

interface PageStatements {
  stage: DuckDBPreparedStatement[];
  inserts: DuckDBPreparedStatement[];
  failures: DuckDBPreparedStatement;
}

async function prepareKind(db: DuckDBConnection, kind: PageKind): Promise<PageStatements> {
  const sql = pageSql(kind, mode);
  return {
    stage: mode === 'staged' ? await Promise.all(stagePageSql(kind).map((s) => db.prepare(s))) : [],
    inserts: await Promise.all(sql.inserts.map((s) => db.prepare(s))),
    failures: await db.prepare(sql.failures),
  };
}
/**
 * The stage tables, new and empty, and every statement prepared again. All the tables come before any
 * statement: a statement prepared before a later change of the catalog is bound again at each run (DuckDB
 * 1.5.5), its bound page then folded as a constant (4 to 5 times the CPU of a page). And new every
 * STAGE_PAGES pages: a DELETE leaves its rows in a TEMP table (no checkpoint vacuums it), so one stage kept
 * for the whole run grew to every record read, spilled to disk past the 64 MB and was scanned whole each page.
 */
async function freshStages(): Promise<void> {
  for (const s of statements.values())
    for (const statement of [...s.stage, ...s.inserts, s.failures]) statement.destroySync();
  for (const kind of KINDS) {
    await connection.run(`DROP TABLE IF EXISTS ${stageTable(kind)}`);
    await connection.run(createStageSql(kind));
  }
  for (const kind of KINDS) statements.set(kind, await prepareKind(connection, kind));
}
const STAGE_PAGES = 16;
const statements = new Map<PageKind, PageStatements>();
await freshStages();

const syncedAt = new Date().toISOString();
/** Binds the named parameters a statement has: the page, the project, the sync's time. */
function bind(statement: DuckDBPreparedStatement, body: Buffer, project: string): void {
  for (let i = 1; i <= statement.parameterCount; i++) {
    const name = statement.parameterName(i);
    if (name === 'body') statement.bindBlob(i, body);
    else if (name === 'project') statement.bindVarchar(i, project);
    else if (name === 'synced_at') statement.bindVarchar(i, syncedAt);
  }
}

/** The status-channel messages read back from the INSERTs, as the sync's statuses logic keeps them. */
const statusSessions = new Map<string, { channel: string; ids: string[] }>();
let failedChecks = 0;
let pagesIngested = 0;
/** Wall ms of the DuckDB statements by what they do (DuckDB runs them on its one thread: about their CPU). */
const duckdbMs: Record<string, number> = {};
async function timed<T>(what: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    duckdbMs[what] = (duckdbMs[what] ?? 0) + performance.now() - started;
  }
}
/** One DuckDB statement sequence at a time on the one connection. */
let turn: Promise<unknown> = Promise.resolve();

async function ingestPage(kind: PageKind, body: Buffer, project: string): Promise<void> {
  if (pagesIngested > 0 && pagesIngested % STAGE_PAGES === 0) await timed('fresh stages', freshStages);
  const s = statements.get(kind)!;
  if (!inTransaction) await connection.run('BEGIN');
  inTransaction = true;
  try {
    for (const statement of s.stage) {
      bind(statement, body, project);
      await timed(`${kind}: parse into the stage`, () => statement.run());
    }
    for (const [n, statement] of s.inserts.entries()) {
      bind(statement, body, project);
      const result = await timed(`${kind}: insert ${n}`, () => statement.runAndReadAll());
      if (kind === 'messages' && n === 0) keepStatusMessages(result.getRows() as [string, string, string][]);
    }
    bind(s.failures, body, project);
    const failed = await timed(`${kind}: count failures`, () => s.failures.runAndReadAll());
    failedChecks += Number(failed.getRows()[0]?.[0] ?? 0);
    pagesIngested++;
    if (pagesIngested % pagesPerTransaction === 0) await commit();
  } catch (error) {
    await connection.run('ROLLBACK');
    throw error;
  }
}

let inTransaction = false;
async function commit(): Promise<void> {
  if (!inTransaction) return;
  inTransaction = false;
  await timed('commit', () => connection.run('COMMIT'));
}

function keepStatusMessages(rows: readonly [string, string, string][]): void {
  for (const [questionId, sessionId, channel] of rows) {
    if (!STATUS_CHANNELS.has(channel)) continue;
    const entry = statusSessions.get(sessionId);
    if (entry) entry.ids.push(questionId);
    else statusSessions.set(sessionId, { channel, ids: [questionId] });
  }
}

/** The statuses of the report files, by question id (the CSV's empty status is null), as the sync reads them. */
const statuses = new Map<string, string | null>();

/** The per-client (per-session) status reads of the windows without a report: a few small answers, JSON.parse-d as the sync does. */
const STATUS_READ = /\/reporter\/messages\/by-(client|session)\?/;
function keepClientStatuses(body: Buffer): void {
  const answer = JSON.parse(body.toString('utf8')) as {
    messages?: { questionId?: unknown; status?: unknown }[];
  };
  for (const m of answer.messages ?? [])
    if (typeof m.questionId === 'string' && m.questionId.length > 0)
      statuses.set(m.questionId, typeof m.status === 'string' && m.status.length > 0 ? m.status : null);
}

function handleBody(r: Recorded, body: Buffer, isFile: boolean): Promise<void> | undefined {
  if (isFile) {
    pickCsvColumns(body.toString('utf8'), ['questionId', 'status'], ([id, status]) => {
      statuses.set(id!, status === '' || status === undefined ? null : status);
    });
    return undefined;
  }
  if (STATUS_READ.test(r.url)) {
    keepClientStatuses(body);
    return undefined;
  }
  const kind = PAGE.exec(r.url)?.[1] as PageKind | undefined;
  if (kind === undefined || dropped.has(windowOf(r) ?? '')) return undefined;
  const project = new URL(r.url, 'http://x').searchParams.get('projectShortName') ?? '';
  const done = turn.then(() => ingestPage(kind, body, project));
  turn = done.catch(() => undefined);
  return done;
}

/** The statuses of the status-channel messages read, set in one transaction with their history rows. */
async function applyStatuses(project: string): Promise<number> {
  const ids: string[] = [];
  const values: (string | null)[] = [];
  for (const { ids: sessionIds } of statusSessions.values())
    for (const id of sessionIds)
      if (statuses.has(id)) {
        ids.push(id);
        values.push(statuses.get(id)!);
      }
  const params = {
    ids: listValue(ids),
    statuses: listValue(values),
    project,
    seen_at: new Date().toISOString(),
  };
  const types = { ids: LIST(VARCHAR), statuses: LIST(VARCHAR), project: VARCHAR, seen_at: VARCHAR };
  await connection.run('BEGIN');
  await connection.run(APPLY_STATUSES_SQL, params, types);
  await connection.run(INSERT_HISTORY_SQL, params, types);
  await connection.run('COMMIT');
  return ids.length;
}

const started = performance.now();
const cpuStarted = process.cpuUsage();
const { bytes, failures } = await replayRequests(
  recorded,
  { baseUrl, token, concurrency },
  (r, status, body, isFile) => (status >= 300 ? undefined : handleBody(r, body, isFile)),
);
await turn;
await commit();
const project = new URL(requests.find((r) => PAGE.test(r.url))?.url ?? '/', 'http://x').searchParams.get(
  'projectShortName',
);
const statusesSet = await timed('statuses', () => applyStatuses(project ?? ''));
await timed('checkpoint', () => connection.run('CHECKPOINT'));
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuStarted);
const rows: Record<string, number> = {};
for (const table of SYNCED_ROW_TABLES)
  rows[table] = Number((await connection.runAndReadAll(`SELECT count(*) FROM ${table}`)).getRows()[0]?.[0]);
connection.closeSync();
instance.closeSync();
process.stdout.write(
  `${JSON.stringify({
    requests: requests.length,
    bytes,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    rows,
    failedChecks,
    failures,
    pages: pagesIngested,
    droppedWindows: dropped.size,
    statuses: statusesSet,
    mode,
    pagesPerTransaction,
    duckdbMs,
  })}\n`,
);

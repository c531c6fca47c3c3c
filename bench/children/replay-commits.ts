// The window-commits step's child: the full sync's warehouse cut into its windows again (REPORTER_WINDOW_HOURS
// of message and session times) and each window committed, as the sync commits it (commitWindow's batch, DuckDB
// on one thread with the sync's 64MB), into two fresh warehouses: one keeping the statistics' rollups, one
// without them (the same batch with no statements after its tables). The two take turns, first one then the
// other, so that the machine's load falls on both alike; each ends with the CHECKPOINT the sync runs before it
// closes the file (counted: without it the side that wrote less would leave more of its WAL unwritten). Prints
// the CPU and wall time of each as JSON; with --profile also each statement's wall and CPU time, summed over the windows (the rollups'
// one text then run statement by statement).
// Usage: replay-commits.js SOURCE.duckdb OUT_DIR WINDOW_HOURS [--profile]
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { SYNC_DUCKDB_MEMORY_LIMIT } from '../../src/config.js';
import { type Batch, commitBatch } from '../../src/warehouse/commit-batch.js';
import { ROLLUP_NAME, ROLLUP_STATEMENT_SEPARATOR } from '../../src/warehouse/commit-rollups-sql.js';
import { describeWindowBatch } from '../../src/warehouse/commit-window.js';
import type { WindowBatch } from '../../src/warehouse/rows.js';
import { runMigrations } from '../../src/warehouse/run-migrations.js';
import { STAGING_TABLES } from '../../src/warehouse/staging-tables.js';

const [source, outDir, hoursText, profileFlag] = process.argv.slice(2);
if (!source || !outDir || !hoursText || (profileFlag !== undefined && profileFlag !== '--profile')) {
  process.stderr.write('usage: replay-commits.js SOURCE.duckdb OUT_DIR WINDOW_HOURS [--profile]\n');
  process.exit(2);
}
const windowMs = Number(hoursText) * 3_600_000;
const out: string = outDir;

const src = await (await DuckDBInstance.create(source, { access_mode: 'READ_ONLY' })).connect();
async function rows(sql: string, params: Record<string, number>): Promise<Record<string, unknown>[]> {
  const bound = sql.replace(/\$(\w+)/g, (_, name: string) => `make_timestamptz(${params[name]! * 1000})`);
  const reader = await src.runAndReadAll(bound);
  return reader.getRowObjectsJS().map((row) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row))
      out[key] = value instanceof Date ? value.getTime() : typeof value === 'bigint' ? Number(value) : value;
    return out;
  });
}
const columns = (stage: { columns: readonly { name: string }[] }) =>
  stage.columns.map((c) => (c.name === 'timestamp' ? 'm."timestamp"' : `${c.name}`)).join(', ');

/** The window [from, to) of the source as the sync would hand it over. */
async function readWindow(project: string, from: number, to: number): Promise<WindowBatch> {
  const p = { from, to };
  const sessions = await rows(
    `SELECT ${columns(STAGING_TABLES.sessions)} FROM sessions WHERE start_time >= $from AND start_time < $to`,
    p,
  );
  const inWindow = 'start_time >= $from AND start_time < $to';
  return {
    project,
    runId: 'replay',
    from,
    to,
    sessions: sessions as never[],
    messages: (await rows(
      `SELECT ${columns(STAGING_TABLES.messages)} FROM messages AS m WHERE m."timestamp" >= $from AND m."timestamp" < $to`,
      p,
    )) as never[],
    sessionLabels: (await rows(
      `SELECT l.project, l.session_id, l.label_id, l.label_name FROM session_labels AS l
       JOIN sessions AS s USING (project, session_id) WHERE s.${inWindow}`,
      p,
    )) as never[],
    messageLabels: (await rows(
      `SELECT project, question_id, label_id, label_name, group_name FROM message_labels AS m
       WHERE m."timestamp" >= $from AND m."timestamp" < $to`,
      p,
    )) as never[],
    sessionData: (await rows(
      `SELECT d.project, d.session_id, d.key, d.value FROM session_data AS d
       JOIN sessions AS s USING (project, session_id) WHERE s.${inWindow}`,
      p,
    )) as never[],
    sessionDataFor: sessions.map((s) => String(s['session_id'])),
    clients: (await rows(
      `SELECT ${columns(STAGING_TABLES.clients)} FROM clients WHERE client_id IN
       (SELECT client_id FROM sessions WHERE ${inWindow})`,
      p,
    )) as never[],
    rejects: [],
    watermark: to,
    seenAt: to,
    requests: 0,
  };
}

/** Each rollup statement by its name in ROLLUP_SQL (in its comment); the tables' statements as one. */
const statementName = (sql: string) =>
  ROLLUP_NAME.exec(sql)?.[1] ?? /^(COMMIT|CHECKPOINT|BEGIN)/.exec(sql)?.[1] ?? "the tables' statements";

/** With --profile, the connection's statements timed (wall and CPU ms, summed by name). */
function timed(
  connection: DuckDBConnection,
  times: Map<string, number>,
  cpuTimes: Map<string, number>,
): DuckDBConnection {
  if (profileFlag === undefined) return connection;
  const proxied: DuckDBConnection = new Proxy(connection, {
    get(on, property) {
      const value = Reflect.get(on, property, on);
      if (typeof value !== 'function') return value;
      if (property !== 'run') return value.bind(on);
      return async (sql: string, ...rest: unknown[]) => {
        // the rollups' one text run statement by statement, each timed under its name
        const parts = sql.split(ROLLUP_STATEMENT_SEPARATOR);
        if (parts.length > 1 && parts.every((part) => ROLLUP_NAME.test(part))) {
          let last: unknown;
          for (const part of parts) last = await (proxied.run as (sql: string) => Promise<unknown>)(part);
          return last;
        }
        const started = performance.now();
        const cpu = process.cpuUsage();
        try {
          return await value.call(on, sql, ...rest);
        } finally {
          const name = statementName(sql);
          const used = process.cpuUsage(cpu);
          times.set(name, (times.get(name) ?? 0) + performance.now() - started);
          cpuTimes.set(name, (cpuTimes.get(name) ?? 0) + (used.user + used.system) / 1000);
        }
      };
    },
  });
  return proxied;
}

async function target(name: string) {
  const path = join(out, `${name}.duckdb`);
  rmSync(path, { force: true });
  rmSync(`${path}.wal`, { force: true });
  const connection = await (await DuckDBInstance.create(path)).connect();
  await runMigrations(connection, { now: () => 0 });
  await connection.run(`SET threads = 1; SET memory_limit = '${SYNC_DUCKDB_MEMORY_LIMIT}'`);
  const times = new Map<string, number>();
  const cpuTimes = new Map<string, number>();
  return { connection: timed(connection, times, cpuTimes), times, cpuTimes, cpuMs: 0, wallMs: 0 };
}

/** The work timed into the target's CPU and wall time. */
async function measure(t: Awaited<ReturnType<typeof target>>, work: () => Promise<unknown>): Promise<void> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  t.wallMs += performance.now() - started;
  const used = process.cpuUsage(cpu);
  t.cpuMs += (used.user + used.system) / 1000;
}

const commit = (t: Awaited<ReturnType<typeof target>>, batch: Batch) =>
  measure(t, () => commitBatch(t.connection, batch, (cause) => cause as Error));

mkdirSync(outDir, { recursive: true });
const [bounds] = await rows(
  'SELECT min(project) AS project, min(start_time) AS first, max("timestamp") AS last FROM sessions, (SELECT max("timestamp") AS "timestamp" FROM messages)',
  {},
);
const project = String(bounds?.['project']);
const first = Number(bounds?.['first']);
const last = Number(bounds?.['last']);
const withRollups = await target('with-rollups');
const without = await target('without-rollups');
let windows = 0;
let messages = 0;
for (let from = Math.floor(first / windowMs) * windowMs; from <= last; from += windowMs) {
  const batch = await readWindow(project, from, from + windowMs);
  const described = describeWindowBatch(batch);
  const pair = [() => commit(withRollups, described), () => commit(without, { ...described, after: [] })];
  if (windows % 2 === 1) pair.reverse();
  for (const run of pair) await run();
  windows++;
  messages += batch.messages.length;
}
// the checkpoint the sync runs before it closes the file: what is still in each WAL written out
for (const t of windows % 2 === 1 ? [without, withRollups] : [withRollups, without])
  await measure(t, () => t.connection.run('CHECKPOINT'));
const figures = (t: typeof withRollups) => ({
  cpuMs: t.cpuMs,
  wallMs: t.wallMs,
  ...(profileFlag === undefined
    ? {}
    : {
        statementsWallMs: Object.fromEntries(
          [...t.times].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, Math.round(v)]),
        ),
        statementsCpuMs: Object.fromEntries(
          [...t.cpuTimes].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, Math.round(v)]),
        ),
      }),
});
process.stdout.write(
  `${JSON.stringify({ windows, messages, withRollups: figures(withRollups), without: figures(without) })}\n`,
);

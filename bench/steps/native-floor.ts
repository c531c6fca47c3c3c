// Step: the native-floor prototype. The full sync's requests replayed against a fresh emulator by
// children/native-ingest.js, which hands each page's bytes to DuckDB to parse, check, map and INSERT into an
// empty warehouse (no JSON.parse of the pages, no per-record JS objects, no appender): what a sync of that
// design would cost at least. The step fails unless the warehouse it fills holds the full sync's rows: the
// same count in every row table, and every stored column equal row by row (compareWithSync).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { type BenchContext, withBenchEmulator } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { childScript, runChild } from '../run-child.js';

/** The row tables the sync fills, with the columns that hold the sync's clock, not the platform's data. */
export const COMPARED_TABLES: Record<string, { clock: string[] }> = {
  sessions: { clock: ['synced_at'] },
  messages: { clock: ['synced_at', 'first_status_at', 'read_at'] },
  session_labels: { clock: [] },
  message_labels: { clock: [] },
  session_data: { clock: [] },
  clients: { clock: ['synced_at'] },
  message_status_history: { clock: ['first_seen_at'] },
};

export interface Comparison {
  /** Tables whose row counts differ: "table: native vs sync". */
  counts: string[];
  /** Per table, the rows of the prototype with no equal row in the sync's warehouse (clock columns aside). */
  unmatched: Record<string, number>;
  /** Per messages column, the rows (joined on the key) where the two differ; clock columns by nullness. */
  messageColumns: Record<string, number>;
}

/** SQL: the rows of `a`.table without an equal row in `b`.table, over `columns` (a multiset difference). */
export function unmatchedRowsSql(table: string, columns: readonly string[], a: string, b: string): string {
  const list = columns.map((c) => `"${c}"`).join(', ');
  return `SELECT count(*) FROM (SELECT ${list} FROM ${a}.${table} EXCEPT ALL SELECT ${list} FROM ${b}.${table})`;
}

/** The prototype's warehouse against the full sync's: counts, whole rows, and the messages column by column. */
export async function compareWithSync(nativePath: string, syncPath: string): Promise<Comparison> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    await c.run(`ATTACH '${nativePath}' AS n (READ_ONLY)`);
    await c.run(`ATTACH '${syncPath}' AS s (READ_ONLY)`);
    const one = async (sql: string) => Number((await c.runAndReadAll(sql)).getRows()[0]?.[0]);
    const result: Comparison = { counts: [], unmatched: {}, messageColumns: {} };
    for (const [table, { clock }] of Object.entries(COMPARED_TABLES)) {
      const [native, sync] = [
        await one(`SELECT count(*) FROM n.${table}`),
        await one(`SELECT count(*) FROM s.${table}`),
      ];
      if (native !== sync) result.counts.push(`${table}: ${native} vs ${sync}`);
      const columns = (await c.runAndReadAll(`SELECT column_name FROM (DESCRIBE n.${table})`))
        .getRows()
        .map((row) => String(row[0]))
        .filter((name) => !clock.includes(name));
      result.unmatched[table] = await one(unmatchedRowsSql(table, columns, 'n', 's'));
    }
    const columns = (await c.runAndReadAll('SELECT column_name FROM (DESCRIBE n.messages)'))
      .getRows()
      .map((row) => String(row[0]));
    const clock = COMPARED_TABLES['messages']!.clock;
    const differ = columns.map((col) => {
      const [a, b] = [`n."${col}"`, `s."${col}"`];
      const test = clock.includes(col) ? `(${a} IS NULL) <> (${b} IS NULL)` : `${a} IS DISTINCT FROM ${b}`;
      return `count(*) FILTER (WHERE ${test})`;
    });
    const row = (
      await c.runAndReadAll(
        `SELECT ${differ.join(', ')} FROM n.messages AS n JOIN s.messages AS s USING (project, question_id)`,
      )
    ).getRows()[0]!;
    columns.forEach((col, i) => {
      result.messageColumns[col] = Number(row[i]);
    });
    return result;
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

/** What is wrong with a comparison, or undefined when the prototype stored the sync's rows. */
export function comparisonFaults(c: Comparison): string | undefined {
  const faults = [
    ...c.counts.map((d) => `rows differ in ${d}`),
    ...Object.entries(c.unmatched)
      .filter(([, n]) => n > 0)
      .map(([t, n]) => `${n} rows of ${t} have no equal row in the sync's warehouse`),
    ...Object.entries(c.messageColumns)
      .filter(([, n]) => n > 0)
      .map(([col, n]) => `messages.${col} differs in ${n} rows`),
  ];
  return faults.length > 0 ? faults.join('; ') : undefined;
}

interface NativeRun {
  requests: number;
  bytes: number;
  wallMs: number;
  cpuMs: number;
  rows: Record<string, number>;
  failedChecks: number;
  failures: number;
  pages: number;
  statuses: number;
}

export const nativeFloorStep: BenchStep = {
  id: 'native-floor',
  title: 'Native floor: the same requests, each page parsed, checked, mapped and inserted by DuckDB',
  needs: ['full-sync'],
  async run(ctx: BenchContext): Promise<StepFigures> {
    if (ctx.options.large && !ctx.options.only?.includes('native-floor')) {
      const note = 'not run with --large unless named: npm run bench -- --large --only native-floor';
      return { cpuSeconds: { value: null, unit: 's', note } };
    }
    mkdirSync(join(ctx.dir, 'native'), { recursive: true });
    const target = join(ctx.dir, 'native', 'warehouse.duckdb');
    const sync = ctx.fullSync!;
    const { child, run } = await withBenchEmulator(ctx, {}, async (running) => {
      const args = [sync.requestsFile, running.url, ctx.token, String(ctx.options.concurrency), target];
      const child = await runChild(childScript('native-ingest.js'), args, {
        resourcesFile: join(ctx.dir, 'resources-native-ingest.json'),
      });
      if (child.exitCode !== 0) throw new Error(`the native ingest failed: ${child.stderr.slice(-2000)}`);
      return { child, run: JSON.parse(child.stdout) as NativeRun };
    });
    if (run.failures > 0) throw new Error(`${run.failures} replayed requests did not answer 2xx`);
    const comparison = await compareWithSync(target, join(sync.dataDir, 'warehouse.duckdb'));
    const fault = comparisonFaults(comparison);
    if (fault !== undefined) throw new Error(`the native prototype did not store the sync's rows: ${fault}`);
    const rows = Object.values(run.rows).reduce((a, b) => a + b, 0);
    return {
      seconds: { value: child.wallMs / 1000, unit: 's', note: 'the replay with DuckDB ingesting the pages' },
      cpuSeconds: {
        value: child.userCpuS + child.systemCpuS,
        unit: 's',
        note: 'user + system CPU of the prototype process (replay, parse, checks, mapping, inserts, CHECKPOINT)',
      },
      rows: { value: rows, unit: 'count', note: JSON.stringify(run.rows) },
      messages: { value: run.rows['messages'] ?? 0, unit: 'count' },
      pages: { value: run.pages, unit: 'count', note: 'pages ingested, one transaction each' },
      failedChecks: {
        value: run.failedChecks,
        unit: 'count',
        note: 'records failing the checks (expected 0)',
      },
      statuses: { value: run.statuses, unit: 'count', note: 'status-channel messages given a report status' },
      peakRssMb: { value: child.maxRssMb, unit: 'MB' },
    };
  },
};

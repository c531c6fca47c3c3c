// The check of a reader's SQL before the writer serves it (check-served-sql.ts, served-sql-rules.ts): the shapes
// the readers' own SQL takes pass (CTEs, range, unnest, windows, casts, information_schema), and whatever would
// reach a file, a URL, another database, an extension, a setting or a sequence is refused, however it is
// spelled. Run on a migrated warehouse file, as the writer's connection sees it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServedSqlCheck } from '../../src/warehouse/check-served-sql.js';
import { type OpenDatabaseFile, openDatabaseFile } from '../../src/warehouse/open-database-file.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { makeTempDir } from './fixtures.js';

let temp: ReturnType<typeof makeTempDir>;
let db: OpenDatabaseFile;
beforeAll(async () => {
  temp = makeTempDir();
  const path = `${temp.dir}/warehouse.duckdb`;
  await (await openWarehouse({ path })).close();
  db = await openDatabaseFile({ path, lockWaitMs: 1_000 });
}, 60_000);
afterAll(() => {
  db?.release();
  temp?.cleanup();
});

const verdictOf = async (sql: string, check = createServedSqlCheck()): Promise<string> => {
  try {
    await check(db.connection, sql);
    return 'served';
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
};

describe('a reader’s SQL the writer serves', () => {
  it.each([
    'SELECT count(*) AS n FROM etl_state',
    'FROM sessions',
    'SELECT * FROM main.sessions s JOIN messages m USING (project, session_id) WHERE s.project = $1',
    `WITH t AS (SELECT range AS q FROM range(0, 10)), u AS (SELECT q FROM t) SELECT q FROM u`,
    'SELECT unnest([1, 2]) AS x',
    'SELECT x FROM unnest([1, 2]) AS t(x)',
    'SELECT session_id FROM sessions WHERE session_id IN (SELECT unnest($ids::VARCHAR[]))',
    'SELECT row_number() OVER (PARTITION BY project ORDER BY start_time) AS n FROM sessions',
    "SELECT CAST(start_time AS DATE), '{}'::JSON, 1::DECIMAL(10, 2), [1]::INTEGER[] FROM sessions",
    "SELECT epoch_ms(now()), date_trunc('day', now()), strftime(now(), '%Y') AS d",
    'SELECT table_name FROM information_schema.tables',
    'SELECT * FROM kb_eval_run_changes',
    'SELECT 1 AS x UNION ALL SELECT 2',
    'DESCRIBE sessions',
  ])('serves %s', async (sql) => {
    expect(await verdictOf(sql)).toBe('served');
  });

  it.each([
    ["SELECT * FROM '/etc/passwd'", /is not a table of the warehouse/],
    ['SELECT * FROM "/tmp/x.csv"', /is not a table of the warehouse/],
    ["SELECT * FROM 'https://example.invalid/x.parquet'", /is not a table of the warehouse/],
    // a CTE's name that is not a plain name never counts as one (out of its scope it would be a file)
    [`WITH a AS (SELECT * FROM "x.csv"), "x.csv" AS (SELECT 1) SELECT * FROM a`, /x\.csv is not a table/],
    ['SELECT * FROM other_db.main.sessions', /other_db\.main\.sessions is not a table/],
    ['SELECT * FROM no_such_table', /no_such_table is not a table/],
    ['SELECT * FROM information_schema.schemata', /information_schema\.schemata/],
    ["SELECT * FROM read_parquet('/tmp/*.parquet')", /table function read_parquet/],
    ["SELECT * FROM glob('/etc/*')", /table function glob/],
    ['SELECT * FROM duckdb_settings()', /table function duckdb_settings/],
    ["SELECT * FROM query('SELECT 1')", /table function query/],
    ["SELECT (SELECT content FROM read_text('/etc/hostname'))", /table function read_text/],
    ["SELECT current_setting('memory_limit')", /current_setting/],
    ["SELECT getvariable('x')", /getvariable/],
    ["SELECT nextval('s')", /nextval/],
    ["SELECT write_log('x')", /write_log/],
    ['SELECT st_point(1, 2)', /st_point is not one the writer has loaded/],
    ["SELECT '1.2.3.4'::INET", /type INET/],
    ["SELECT json_serialize_plan('SELECT * FROM read_text(''/etc/hostname'')')", /json_serialize_plan/],
    ['SELECT 1; SELECT 2', /2 statements/],
    ['SELEC 1', /does not parse/],
    ["SET memory_limit = '1TB'", /not a SELECT/],
    ['BEGIN TRANSACTION', /not a SELECT/],
    ['EXPLAIN SELECT 1', /not a SELECT/],
    ['PIVOT sessions ON channel_type', /statements, not one|not a SELECT/],
    ['CALL pragma_version()', /not a SELECT/],
  ])('refuses %s', async (sql, reason) => {
    const verdict = await verdictOf(sql);
    expect(verdict).toMatch(/^warehouse\.read_refused: The writer serves reads only/);
    expect(verdict).toMatch(reason);
  });

  it('keeps its verdict per SQL text: a text seen before is not parsed again', async () => {
    let calls = 0;
    const counted = new Proxy(db.connection, {
      get(target, key) {
        const value = Reflect.get(target, key);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls++;
          return value.apply(target, args);
        };
      },
    });
    const check = createServedSqlCheck();
    for (const sql of ['SELECT count(*) AS n FROM etl_state', "SELECT * FROM '/etc/passwd'"]) {
      await check(counted, sql).catch(() => undefined);
      const first = calls;
      expect(first).toBeGreaterThan(0);
      for (let i = 0; i < 100; i++) await check(counted, sql).catch(() => undefined);
      expect(calls).toBe(first);
      calls = 0;
    }
  });
});

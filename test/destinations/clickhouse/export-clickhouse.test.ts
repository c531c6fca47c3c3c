// The ClickHouse destination against a real ClickHouse server: after an export, SELECT … FINAL gives each
// table's rows of the warehouse (its count, its keys, independent aggregates of its values); a run with
// nothing changed sends nothing; after a sync only the changed partitions are sent and the rows still
// match; rows deleted from the warehouse go; an export killed between sending and recording is exact after
// the next one; the password never appears in an error.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClickHouse, createClickHouse } from '../../../src/destinations/clickhouse/clickhouse-http.js';
import { exportClickHouse } from '../../../src/destinations/clickhouse/export-clickhouse.js';
import { LAKE_TABLES } from '../../../src/destinations/lake-tables.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';
import {
  type ClickHouseServer,
  clickHouseMissing,
  startClickHouse,
} from '../../helpers/clickhouse-server.js';
import { runCli } from '../../helpers/run-cli.js';
import { createHarness } from '../../helpers/sync-harness.js';

const missing = clickHouseMissing();
let server: ClickHouseServer | undefined;
beforeAll(async () => {
  if (!missing) server = await startClickHouse();
}, 90_000);
afterAll(async () => {
  await server?.stop();
});

const keyOf = (row: Record<string, unknown>, key: readonly string[]) =>
  key.map((k) => String(row[k])).join('|');

/** Per table: the warehouse's and ClickHouse's (FINAL) row counts and key lists, and message aggregates. */
async function compare(warehouse: Warehouse, clickhouse: ClickHouse) {
  const out: Record<string, { warehouse: string[]; clickhouse: string[] }> = {};
  for (const { table, key } of LAKE_TABLES) {
    const cols = key.map((k) => `"${k}"`).join(', ');
    const mine = (await warehouse.query(`select ${cols} from ${table}`)).map((r) => keyOf(r, key)).sort();
    const theirs = (
      await clickhouse.select<Record<string, unknown>>(
        `SELECT ${key.map((k) => `\`${k}\``).join(', ')} FROM ${clickhouse.database}.${table} FINAL FORMAT JSONEachRow`,
      )
    )
      .map((r) => keyOf(r, key))
      .sort();
    out[table] = { warehouse: mine, clickhouse: theirs };
  }
  return out;
}

async function messageAggregates(warehouse: Warehouse, clickhouse: ClickHouse) {
  const [w] = await warehouse.query(
    'select count(*) as n, count(status) as with_status, round(sum(confidence), 6) as confidence, count(*) filter (where status = \'READ\') as read, sum(epoch_ms("timestamp")) as times from messages',
  );
  const [c] = await clickhouse.select<Record<string, unknown>>(
    `SELECT count() AS n, count(status) AS with_status, round(sum(confidence), 6) AS confidence, countIf(status = 'READ') AS read, sum(timestamp) AS times FROM ${clickhouse.database}.messages FINAL FORMAT JSONEachRow`,
  );
  return {
    warehouse: w,
    clickhouse: Object.fromEntries(Object.entries(c ?? {}).map(([k, v]) => [k, Number(v)])),
  };
}

describe.skipIf(missing !== undefined)('export clickhouse (a real ClickHouse server)', () => {
  it('replicates the warehouse exactly, incrementally, deletions and a killed run included', async () => {
    // the syncs are the setup (their rows the ground truth), in 4-day windows: a commit each, the same rows
    const h = await createHarness({
      emulator: { sessions: 1200, days: 5 },
      env: { REPORTER_WINDOW_HOURS: '96' },
    });
    const clickhouse = createClickHouse({
      url: server!.url,
      user: 'default',
      password: '',
      database: 'reporter_test',
    });
    try {
      expect((await h.sync()).status).toBe('success');
      const first = await h.withWarehouse((w) => exportClickHouse(w, clickhouse));
      expect(first.sent.length).toBeGreaterThan(10);
      for (const [table, c] of Object.entries(await h.withWarehouse((w) => compare(w, clickhouse))))
        expect(c.clickhouse, table).toEqual(c.warehouse);
      const aggregates = await h.withWarehouse((w) => messageAggregates(w, clickhouse));
      expect(aggregates.clickhouse).toEqual(aggregates.warehouse);

      const again = await h.withWarehouse((w) => exportClickHouse(w, clickhouse));
      expect(again.sent).toEqual([]);

      // a sync later, and rows deleted from the warehouse
      h.running.emulator.clock.advance(6 * 3_600_000);
      expect((await h.sync()).status).toBe('success');
      await h.withWarehouse((w) =>
        w.query(
          'delete from session_labels where session_id in (select session_id from session_labels limit 5)',
        ),
      );
      const third = await h.withWarehouse((w) => exportClickHouse(w, clickhouse));
      expect(third.sent).not.toContain('sessions/project=shop-bot/date=2026-10-28');
      expect(third.sent.some((p) => p.startsWith('session_labels/'))).toBe(true);
      for (const [table, c] of Object.entries(await h.withWarehouse((w) => compare(w, clickhouse))))
        expect(c.clickhouse, table).toEqual(c.warehouse);

      // a run killed after sending but before recording: the state forgets it, the next run is exact
      await h.withWarehouse((w) => w.query("delete from etl_state where key like 'clickhouse:%'"));
      await h.withWarehouse((w) =>
        w.query(
          'update messages set confidence = 0.5 where question_id in (select question_id from messages limit 3)',
        ),
      );
      await h.withWarehouse((w) => exportClickHouse(w, clickhouse));
      for (const [table, c] of Object.entries(await h.withWarehouse((w) => compare(w, clickhouse))))
        expect(c.clickhouse, table).toEqual(c.warehouse);
      const after = await h.withWarehouse((w) => messageAggregates(w, clickhouse));
      expect(after.clickhouse).toEqual(after.warehouse);
    } finally {
      await clickhouse.close();
      await h.close();
    }
  }, 240_000);

  it('names the setting and never prints the password when ClickHouse refuses', async () => {
    const clickhouse = createClickHouse({
      url: server!.url,
      user: 'nobody',
      password: 'sekret-password-1',
      database: 'x',
    });
    try {
      const failure = await clickhouse.run('SELECT 1').catch((e: unknown) => e as Error);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toMatch(
        /REPORTER_CLICKHOUSE_USER nobody|REPORTER_CLICKHOUSE_PASSWORD/,
      );
      expect((failure as Error).message).not.toContain('sekret-password-1');
    } finally {
      await clickhouse.close();
    }
  }, 60_000);

  it('the sync job replicates after each sync; export clickhouse says what is missing', async () => {
    const h = await createHarness({ realClock: true, emulator: { sessions: 300, days: 2 } });
    const clickhouse = createClickHouse({
      url: server!.url,
      user: 'default',
      password: '',
      database: 'reporter_job',
    });
    try {
      const env = {
        ...h.env,
        REPORTER_CLICKHOUSE_URL: server!.url,
        REPORTER_CLICKHOUSE_DATABASE: 'reporter_job',
      };
      const none = await runCli(['export', 'clickhouse'], h.env);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/REPORTER_CLICKHOUSE_URL: is not set/);
      const run = await runCli(['run', 'sync', '--json'], env);
      expect(run.code, run.stderr).toBe(0);
      const details = JSON.parse(run.stdout).details;
      expect(details.clickhouse.sent.length).toBeGreaterThan(0);
      const [row] = await clickhouse.select<{ n: string }>(
        'SELECT count() AS n FROM reporter_job.sessions FINAL FORMAT JSONEachRow',
      );
      const [mine] = await h.withWarehouse((w) => w.query('select count(*) as n from sessions'));
      expect(Number(row?.n)).toBe(mine?.['n']);
      const again = await runCli(['export', 'clickhouse', '--json'], env);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout).sent).toEqual([]);
    } finally {
      await clickhouse.close();
      await h.close();
    }
  }, 120_000);

  it('export clickhouse killed with -9 midway, then again: the rows equal the warehouse’s', async () => {
    // the volume makes the export long enough to kill; the sync (setup, in-process) in one 4-day window
    const h = await createHarness({
      realClock: true,
      emulator: { sessions: 3000, days: 3 },
      env: { REPORTER_WINDOW_HOURS: '96' },
    });
    const clickhouse = createClickHouse({
      url: server!.url,
      user: 'default',
      password: '',
      database: 'reporter_kill',
    });
    try {
      const env = {
        ...h.env,
        REPORTER_CLICKHOUSE_URL: server!.url,
        REPORTER_CLICKHOUSE_DATABASE: 'reporter_kill',
      };
      expect((await h.sync()).status).toBe('success');
      const child = spawn(process.execPath, ['bin/reporter-etl.js', 'export', 'clickhouse'], {
        env: { ...process.env, LOG_LEVEL: 'warn', ...env },
        stdio: 'ignore',
      });
      // killed once ClickHouse has some rows and before the export ends
      const deadline = Date.now() + 60_000;
      for (;;) {
        const tables = await clickhouse.select<{ name: string }>(
          "SELECT name FROM system.tables WHERE database = 'reporter_kill' AND name = 'messages' FORMAT JSONEachRow",
        );
        const [row] = tables.length
          ? await clickhouse.select<{ n: string }>(
              'SELECT count() AS n FROM reporter_kill.messages FORMAT JSONEachRow',
            )
          : [];
        if (Number(row?.n ?? 0) > 0 || child.exitCode !== null || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(child.exitCode, 'the export ended before it could be killed').toBeNull();
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const again = await runCli(['export', 'clickhouse'], env);
      expect(again.code, again.stderr).toBe(0);
      for (const [table, c] of Object.entries(await h.withWarehouse((w) => compare(w, clickhouse))))
        expect(c.clickhouse, table).toEqual(c.warehouse);
      const aggregates = await h.withWarehouse((w) => messageAggregates(w, clickhouse));
      expect(aggregates.clickhouse).toEqual(aggregates.warehouse);
    } finally {
      await clickhouse.close();
      await h.close();
    }
  }, 180_000);
});

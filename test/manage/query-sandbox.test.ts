// The --sql sandbox against a runaway query: a cross join that would run for minutes stops at its time limit
// with an error naming REPORTER_SQL_TIMEOUT_SECONDS and the command's option, and a writer asking for the file
// (the turn marker) gets it while such a query runs: the query is interrupted and fails with exit 75.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqlTimeLimit } from '../../src/cli/sql-time-limit.js';
import { loadConfig } from '../../src/config.js';
import { EtlError } from '../../src/errors.js';
import { useQuerySandboxAt } from '../../src/manage/use-query-sandbox.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { makeTempDir } from '../warehouse/fixtures.js';

/** Minutes of work on two cores: 10^12 hashes. */
const RUNAWAY = 'select max(hash(a.range, b.range)) as h from range(1000000) a, range(1000000) b';

let temp: ReturnType<typeof makeTempDir>;
let path: string;

beforeEach(async () => {
  temp = makeTempDir();
  path = join(temp.dir, 'warehouse.duckdb');
  const warehouse = await openWarehouse({ path, access: 'write' });
  await warehouse.close();
});
afterEach(() => temp.cleanup());

describe('the query sandbox', () => {
  it('stops a runaway query at its time limit and names the setting and the option', async () => {
    const started = performance.now();
    const sandbox = useQuerySandboxAt({
      path,
      lockWaitMs: 2000,
      timeLimit: { ms: 1000, option: '--timeout' },
    });
    const error = await sandbox((s) => s.query(RUNAWAY)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EtlError);
    expect(error).toMatchObject({ code: 'manage.query_timeout', exitCode: 2 });
    expect((error as Error).message).toMatch(/1 s\b/);
    expect((error as Error).message).toContain('REPORTER_SQL_TIMEOUT_SECONDS');
    expect((error as Error).message).toContain('--timeout');
    expect(performance.now() - started).toBeLessThan(8000);
    // the file was let go: a writer opens it at once
    const writer = await openWarehouse({ path, access: 'write', lockWaitMs: 0 });
    await writer.close();
  }, 20_000);

  it('a streamed query stops at its time limit too', async () => {
    const sandbox = useQuerySandboxAt({
      path,
      lockWaitMs: 2000,
      timeLimit: { ms: 500, option: '--sql-timeout' },
    });
    const error = await sandbox(async (s) => {
      const { chunks } = await s.stream(RUNAWAY);
      for await (const _ of chunks);
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'manage.query_timeout' });
    expect((error as Error).message).toContain('--sql-timeout');
  }, 20_000);

  it('lets a waiting writer have the file: the query is interrupted and exits 75', async () => {
    const sandbox = useQuerySandboxAt({
      path,
      lockWaitMs: 2000,
      timeLimit: { ms: 600_000, option: '--timeout' },
    });
    let opened!: () => void;
    const running = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const query = sandbox((s) => {
      opened();
      return s.query(RUNAWAY);
    }).catch((e: unknown) => e);
    await running;
    const started = performance.now();
    // the writer asks for its turn through the marker while it waits (at most 5 s here)
    const writer = await openWarehouse({ path, access: 'write', lockWaitMs: 5000 });
    try {
      await writer.startRun({ runId: 'r1', project: 'p', job: 'sync', trigger: 'manual' });
    } finally {
      await writer.close();
    }
    expect(performance.now() - started).toBeLessThan(4000);
    const error = await query;
    expect(error).toMatchObject({ code: 'manage.query_yielded_to_writer', exitCode: 75 });
    expect((error as Error).message).toMatch(/writer.*PID \d+/);
    expect((error as Error).message).toMatch(/again/);
  }, 20_000);

  it('lets a short query end before a writer that has waited less than a second', async () => {
    const sandbox = useQuerySandboxAt({
      path,
      lockWaitMs: 2000,
      timeLimit: { ms: 60_000, option: '--timeout' },
    });
    const writer = setInterval(() => writeFileSync(`${path}.waiting`, '4242 writer'), 50);
    try {
      const answers = await sandbox(async (s) => {
        const rows = [];
        for (let i = 0; i < 4; i++) {
          rows.push(...(await s.query('select 42 as n')));
          await new Promise((r) => setTimeout(r, 100));
        }
        return rows;
      });
      expect(answers).toEqual([{ n: 42 }, { n: 42 }, { n: 42 }, { n: 42 }]);
    } finally {
      clearInterval(writer);
    }
  }, 20_000);

  it('does not give way to a waiting reader (readers share the file): only its time limit stops it', async () => {
    const sandbox = useQuerySandboxAt({
      path,
      lockWaitMs: 2000,
      timeLimit: { ms: 1500, option: '--timeout' },
    });
    const reader = setInterval(() => writeFileSync(`${path}.waiting`, '4242 reader'), 50);
    try {
      const error = await sandbox((s) => s.query(RUNAWAY)).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'manage.query_timeout' });
    } finally {
      clearInterval(reader);
    }
  }, 20_000);

  it('takes its limit from the option, else REPORTER_SQL_TIMEOUT_SECONDS (60 by default; 0: no limit)', () => {
    const defaults = loadConfig({}, { requireToken: false });
    expect(sqlTimeLimit(undefined, '--timeout', defaults)).toEqual({ ms: 60_000, option: '--timeout' });
    const set = loadConfig({ REPORTER_SQL_TIMEOUT_SECONDS: '2.5' }, { requireToken: false });
    expect(sqlTimeLimit(undefined, '--sql-timeout', set)).toEqual({ ms: 2500, option: '--sql-timeout' });
    expect(sqlTimeLimit('0', '--sql-timeout', set).ms).toBe(0);
    expect(sqlTimeLimit('90', '--timeout', set).ms).toBe(90_000);
    expect(() => sqlTimeLimit('soon', '--timeout', set)).toThrow(/--timeout/);
    expect(() => loadConfig({ REPORTER_SQL_TIMEOUT_SECONDS: 'soon' }, { requireToken: false })).toThrow(
      /REPORTER_SQL_TIMEOUT_SECONDS/,
    );
  });
});

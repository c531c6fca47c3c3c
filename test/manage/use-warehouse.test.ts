// useWarehouseAt: a process's operations on one warehouse file run one after the other. Two at once (a platform
// report task's heartbeat beside its update) used to open the file twice, the second waiting on DuckDB's lock
// held by this very process; a nested one still opens it.
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { useWarehouseAt } from '../../src/manage/use-warehouse.js';
import { makeTempDir } from '../warehouse/fixtures.js';

const temp = makeTempDir();
afterEach(() => temp.cleanup());

/** A logger whose warnings are kept, as the CLI would print them. */
function recordingLogger(): { log: pino.Logger; warnings: string[] } {
  const warnings: string[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
  return { log, warnings };
}

describe('useWarehouseAt', () => {
  it('runs two operations of this process at once one after the other, neither waiting on the lock', async () => {
    const { log, warnings } = recordingLogger();
    const use = useWarehouseAt({ path: `${temp.dir}/warehouse.duckdb`, lockWaitMs: 5_000, log });
    const order: string[] = [];
    const slow = use(async (w) => {
      order.push('slow begins');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await w.query('SELECT 1');
      order.push('slow ends');
      return 'slow';
    });
    const quick = use(async (w) => {
      order.push('quick begins');
      await w.query('SELECT 1');
      return 'quick';
    });
    expect(await Promise.all([slow, quick])).toEqual(['slow', 'quick']);
    expect(order).toEqual(['slow begins', 'slow ends', 'quick begins']);
    expect(warnings.filter((m) => /waiting/.test(m))).toEqual([]);
  });

  it('one failing lets the next run', async () => {
    const use = useWarehouseAt({ path: `${temp.dir}/warehouse.duckdb`, lockWaitMs: 5_000 });
    const failing = use(async () => {
      throw new Error('the first failed');
    });
    const next = use(async (w) => (await w.query('SELECT 42 AS n'))[0]?.['n']);
    await expect(failing).rejects.toThrow('the first failed');
    expect(await next).toBe(42);
  });
});

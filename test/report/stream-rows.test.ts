// Warehouse.streamRows: chunks of plain values (BIGINT, HUGEINT, DECIMAL as number, TIMESTAMPTZ as epoch ms: no
// bigint reaches the writer), every row once across chunks, and the warehouse runs nothing else meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';

let w: Warehouse;
beforeAll(async () => {
  w = await openWarehouse({ path: ':memory:' });
});
afterAll(async () => {
  await w.close();
});

describe('streamRows', () => {
  it('converts wide integers, decimals and timestamps to numbers', async () => {
    const chunks = [];
    for await (const chunk of w.streamRows(
      `SELECT 9007199254740991::BIGINT AS big, 12::HUGEINT AS huge, 12.34::DECIMAL(10, 2) AS dec,
              TIMESTAMPTZ '2026-11-20 10:00:00+00' AS t, 'x' AS s, NULL::BIGINT AS n`,
    ))
      chunks.push(chunk);
    expect(chunks).toEqual([
      {
        columns: ['big', 'huge', 'dec', 't', 's', 'n'],
        rows: [[9007199254740991, 12, 12.34, Date.parse('2026-11-20T10:00:00Z'), 'x', null]],
      },
    ]);
  });

  it('yields every row once, in several chunks, with bound parameters', async () => {
    let rows = 0;
    let chunks = 0;
    let sum = 0;
    for await (const chunk of w.streamRows('SELECT i FROM range($n) t(i)', { n: 10_000 })) {
      chunks += 1;
      rows += chunk.rows.length;
      for (const [i] of chunk.rows) {
        expect(typeof i).toBe('number');
        sum += i as number;
      }
    }
    expect(rows).toBe(10_000);
    expect(chunks).toBeGreaterThan(1);
    expect(sum).toBe((9_999 * 10_000) / 2);
  });

  it('holds the warehouse until the iteration ends, also when it is broken off', async () => {
    const order: string[] = [];
    const iterator = w.streamRows('SELECT i FROM range(5000) t(i)')[Symbol.asyncIterator]();
    await iterator.next();
    const query = w.query('SELECT 1 AS one').then(() => order.push('query'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    order.push('streaming');
    await iterator.return?.();
    await query;
    expect(order).toEqual(['streaming', 'query']);
  });
});

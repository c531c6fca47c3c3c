// An `int64` staging column takes any signed 64-bit integer exactly: a safe integer as a number, a larger one as
// the string of its digits (a number beyond 2^53 would already be rounded). Anything else, 2^63 included, is
// refused naming its column and row.
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/warehouse/query-rows.js';
import { defineStagedTable, stageRows } from '../../src/warehouse/stage-rows.js';

const STAGE = defineStagedTable<{ id: number | string | null }>('stage_ids', [['id', 'int64']]);
const BEYOND_2_53 = '9007199254740993'; // 2^53 + 1: no JS number holds it

describe('stageRows: int64 columns', () => {
  it('stores ids beyond 2^53 exactly and refuses what is not a signed 64-bit integer', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const ids = [42, BEYOND_2_53, '9223372036854775807', '-9223372036854775808', null];
    await stageRows(
      connection,
      STAGE,
      ids.map((id) => ({ id })),
    );
    const rows = await queryRows(connection, 'SELECT id::VARCHAR AS id FROM stage_ids ORDER BY seq');
    expect(rows.map((r) => r['id'])).toEqual([
      '42',
      BEYOND_2_53,
      '9223372036854775807',
      '-9223372036854775808',
      null,
    ]);
    for (const bad of ['9223372036854775808', 2 ** 63, '-9223372036854775809', 2 ** 53, 1.5, '12a', '', ' 1'])
      await expect(stageRows(connection, STAGE, [{ id: 1 }, { id: bad }])).rejects.toThrow(
        /row 1 into ids: column id expects a 64-bit integer/,
      );
    connection.closeSync();
  });
});

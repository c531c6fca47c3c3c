// A `date` staging column takes a yyyy-MM-dd calendar day and stores that day, whatever the zone; a string that
// is not a real day (2026-02-31, a time) is refused naming its column and row.
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/warehouse/query-rows.js';
import { defineStagedTable, stageRows } from '../../src/warehouse/stage-rows.js';

const STAGE = defineStagedTable<{ day: string }>('stage_days', [['day', 'date']]);

describe('stageRows: date columns', () => {
  it('stores the calendar day given and refuses what is not one', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run("SET TimeZone = 'America/Los_Angeles'");
    await stageRows(connection, STAGE, [{ day: '2026-03-01' }, { day: '2024-02-29' }]);
    const rows = await queryRows(
      connection,
      "SELECT strftime(day, '%Y-%m-%d') AS d FROM stage_days ORDER BY seq",
    );
    expect(rows.map((r) => r['d'])).toEqual(['2026-03-01', '2024-02-29']);
    for (const bad of ['2026-02-31', '2026-03-01T00:00:00Z', '1 March'])
      await expect(stageRows(connection, STAGE, [{ day: bad }])).rejects.toThrow(/day/);
    connection.closeSync();
  });
});

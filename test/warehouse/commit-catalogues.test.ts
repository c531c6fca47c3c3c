// commitCatalogues: a project's label catalogues and experiments are replaced whole, other projects'
// rows are untouched, and a batch holding another project's rows is refused.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import type { CatalogueBatch } from '../../src/warehouse/rows.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { makeTempDir, PROJECT, T0 } from './fixtures.js';

let temp: ReturnType<typeof makeTempDir>;
let warehouse: Warehouse;

beforeEach(async () => {
  temp = makeTempDir();
  warehouse = await openWarehouse({ path: `${temp.dir}/warehouse.duckdb`, now: () => T0 });
});
afterEach(async () => {
  await warehouse.close();
  temp.cleanup();
});

function makeCatalogue(project: string, suffix: string): CatalogueBatch {
  return {
    project,
    runId: 'run-1',
    sessionLabels: [
      { project, label_id: 1, name: `good ${suffix}`, priority: 1 },
      { project, label_id: 2, name: `bad ${suffix}`, priority: null },
    ],
    messageLabels: [
      {
        project,
        label_id: 5,
        name: `wrong ${suffix}`,
        priority: 2,
        group_id: 9,
        group_name: 'quality',
        group_priority: 1,
      },
    ],
    experiments: [
      {
        project,
        experiment_key: `exp-${suffix}`,
        description: null,
        status: 'RUNNING',
        branches: ['a', 'b'],
        session_count: 3_000_000_000,
      },
    ],
  };
}

describe('commitCatalogues', () => {
  it('replaces the catalogues of a project and keeps those of others', async () => {
    await warehouse.commitCatalogues(makeCatalogue(PROJECT, 'v1'));
    await warehouse.commitCatalogues(makeCatalogue('other', 'o1'));
    const next = makeCatalogue(PROJECT, 'v2');
    next.sessionLabels = next.sessionLabels.slice(0, 1);
    await warehouse.commitCatalogues(next);

    expect(
      await warehouse.query('SELECT project, label_id, name FROM session_label_catalogue ORDER BY ALL'),
    ).toEqual([
      { project: 'other', label_id: 1, name: 'good o1' },
      { project: 'other', label_id: 2, name: 'bad o1' },
      { project: PROJECT, label_id: 1, name: 'good v2' },
    ]);
    expect(
      await warehouse.query(`SELECT * FROM message_label_catalogue WHERE project = '${PROJECT}'`),
    ).toEqual([
      {
        project: PROJECT,
        label_id: 5,
        name: 'wrong v2',
        priority: 2,
        group_id: 9,
        group_name: 'quality',
        group_priority: 1,
      },
    ]);
    expect(await warehouse.query('SELECT * FROM experiments WHERE project = $1', [PROJECT])).toEqual([
      {
        project: PROJECT,
        experiment_key: 'exp-v2',
        description: null,
        status: 'RUNNING',
        branches: ['a', 'b'],
        session_count: 3_000_000_000,
        synced_at: T0,
      },
    ]);
  });

  it('refuses rows of another project and keeps the previous catalogue', async () => {
    await warehouse.commitCatalogues(makeCatalogue(PROJECT, 'v1'));
    const mixed = makeCatalogue(PROJECT, 'v2');
    mixed.experiments = makeCatalogue('other', 'x').experiments;
    await expect(warehouse.commitCatalogues(mixed)).rejects.toMatchObject({ code: 'warehouse.invalid_row' });
    expect(await warehouse.query('SELECT name FROM session_label_catalogue ORDER BY label_id')).toEqual([
      { name: 'good v1' },
      { name: 'bad v1' },
    ]);
  });
});

// kb eval's look-up of the expected sources in the latest kb sync snapshot of the project (kb_snapshots,
// kb_sources): ids and names (case ignored) that no source of it has are named; no snapshot of the project, or
// nothing expected, gives null (nothing to compare with). The snapshots are rows this test writes itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUnknownExpectedSources } from '../../../src/analysis/kb-eval/find-unknown-expected-sources.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';

let dir: string;
let warehouse: Warehouse;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kb-eval-unknown-'));
  warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
});
afterAll(async () => {
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

const question = (key: string, expectedSources: string[]) => ({
  key,
  question: key,
  expectedSources,
  expectedAnswerContains: [],
});

async function snapshot(id: string, projectId: number, takenAt: string, sources: [number, string][]) {
  await warehouse.execute([
    {
      sql: `INSERT INTO kb_snapshots (snapshot_id, taken_at, base_url, project_id, project_name, with_admin,
              sources, integrations, segments, rejects)
            VALUES ($id, $at, 'http://kb', $p, 'p', false, $n, 0, 0, 0)`,
      params: { id, at: new Date(takenAt), p: projectId, n: sources.length },
    },
    ...sources.map(([sourceId, name]) => ({
      sql: `INSERT INTO kb_sources (snapshot_id, source_id, name, status) VALUES ($id, $s, $name, 'INGESTED')`,
      params: { id, s: sourceId, name },
    })),
  ]);
}

describe('expected sources missing from the latest kb sync snapshot', () => {
  it('is null without a snapshot, and names what the latest snapshot of the project lacks', async () => {
    const questions = [question('a', ['Returns.PDF', '7']), question('b', ['8', 'gone.md', 'returns.pdf'])];
    expect(await findUnknownExpectedSources(warehouse, 5, questions)).toBeNull();
    await snapshot('old', 5, '2026-11-01T00:00:00Z', [
      [7, 'returns.pdf'],
      [8, 'gone.md'],
    ]);
    await snapshot('new', 5, '2026-11-02T00:00:00Z', [[7, 'returns.pdf']]);
    await snapshot('other', 6, '2026-11-03T00:00:00Z', [[8, 'gone.md']]);
    // the latest snapshot of project 5 lost source 8 (gone.md); project 6's snapshot is not looked at
    expect(await findUnknownExpectedSources(warehouse, 5, questions)).toEqual({
      snapshotId: 'new',
      unknown: ['8', 'gone.md'],
    });
    // the project unknown (GET /info failed): the latest snapshot of any project
    expect(await findUnknownExpectedSources(warehouse, null, questions)).toEqual({
      snapshotId: 'other',
      unknown: ['Returns.PDF', '7'],
    });
    expect(await findUnknownExpectedSources(warehouse, 9, questions)).toBeNull();
    expect(await findUnknownExpectedSources(warehouse, 5, [question('c', [])])).toBeNull();
  });
});

// The loader's DuckDB settings (load-duckdb-settings.ts): while a load commits, DuckDB checkpoints only past
// LOAD_CHECKPOINT_THRESHOLD of WAL (its checkpoints of large payloads were the receiver's peak RSS); they
// stay while records keep coming (a load that stored some), so no commit between two loads checkpoints
// mid-stream; after a load that found nothing new, and after a load that failed midway, the warehouse has
// DuckDB's defaults again, and the rows committed before the failure are stored once.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.js';
import { loadSpoolFile, type SpoolLoader } from '../../../src/sources/webhooks/load-spool.js';
import type { SpoolRecord } from '../../../src/sources/webhooks/spool.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import type { SqlStatement, Warehouse } from '../../../src/warehouse/warehouse.js';

let dir: string;
let warehouse: Warehouse;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhooks-load-settings-'));
  warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
});
afterEach(async () => {
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

const SETTINGS_SQL =
  "select current_setting('checkpoint_threshold') as checkpoint, current_setting('allocator_flush_threshold') as flush";
const readSettings = async (w: Warehouse) => (await w.query(SETTINGS_SQL))[0];

/** The warehouse, noting the settings after each load transaction; it fails the `failAt`-th one (1-based). */
function noting(inner: Warehouse, seen: unknown[], failAt = 0): Warehouse {
  let count = 0;
  return new Proxy(inner, {
    get(target, property, receiverOfGet) {
      if (property !== 'execute') return Reflect.get(target, property, receiverOfGet);
      return async (statements: readonly SqlStatement[]) => {
        if (!statements.some((s) => s.sql.includes('INSERT INTO chatapi_webhook_events')))
          return target.execute(statements);
        if (++count === failAt) throw new Error('the process is stopping');
        const changed = await target.execute(statements);
        seen.push(await readSettings(target));
        return changed;
      };
    },
  });
}

const chatapi = (i: number): SpoolRecord => ({
  route: 'chatapi',
  receivedAt: 1_795_000_000_000 + i,
  body: [
    {
      clientId: 'c',
      questionId: `q-${i}`,
      timestamp: '2026-11-20T09:30:00',
      data: { answer: 'x'.repeat(500) },
    },
  ],
  channels: [null],
});

/** A spool file of the records, as the receiver writes it (a JSON line each); its path. */
function spoolOf(records: readonly SpoolRecord[]): string {
  const path = join(dir, 'spool-1-1.jsonl');
  writeFileSync(path, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return path;
}

function loaderOf(w: Warehouse): SpoolLoader {
  return {
    warehouse: w,
    log: silentLogger(),
    context: () => ({ channels: [], timeZone: 'UTC', runId: 'run-1', now: Date.now() }),
    // a batch per record
    limits: { maxBytes: 100, maxRecords: 10_000 },
  };
}

describe('the DuckDB settings of a load', () => {
  it('checkpoints past LOAD_CHECKPOINT_THRESHOLD while records come, and has the defaults back once none do', async () => {
    const defaults = await readSettings(warehouse);
    const seen: unknown[] = [];
    const path = spoolOf([0, 1, 2].map(chatapi));
    const loader = loaderOf(noting(warehouse, seen));
    expect(await loadSpoolFile(loader, path, 'spool-1-1.jsonl')).toBe(3);
    const loadSettings = { checkpoint: '256.0 MiB', flush: '1.0 MiB' };
    expect(seen).toEqual(Array(3).fill(loadSettings));
    expect(defaults).toEqual({ checkpoint: '16.0 MiB', flush: '128.0 MiB' });
    // records stored: the next load is likely a second away, and between the two nothing checkpoints
    expect(await readSettings(warehouse)).toEqual(loadSettings);
    expect(await loadSpoolFile(loader, path, 'spool-1-1.jsonl')).toBe(0);
    expect(await readSettings(warehouse)).toEqual(defaults);
    expect(await warehouse.query('select count(*) as n from chatapi_webhook_events')).toEqual([{ n: 3 }]);
  });

  it('has the defaults back after a load that failed midway, and a second load stores each row once', async () => {
    const defaults = await readSettings(warehouse);
    const seen: unknown[] = [];
    const path = spoolOf([0, 1, 2].map(chatapi));
    await expect(
      loadSpoolFile(loaderOf(noting(warehouse, seen, 2)), path, 'spool-1-1.jsonl'),
    ).rejects.toThrow('the process is stopping');
    expect(seen).toHaveLength(1);
    expect(await readSettings(warehouse)).toEqual(defaults);
    await loadSpoolFile(loaderOf(warehouse), path, 'spool-1-1.jsonl');
    expect(await warehouse.query('select question_id from chatapi_webhook_events order by 1')).toEqual([
      { question_id: 'q-0' },
      { question_id: 'q-1' },
      { question_id: 'q-2' },
    ]);
  });
});

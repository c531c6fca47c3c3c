// The sync runs DuckDB with its own, smaller resources (REPORTER_SYNC_DUCKDB_THREADS and _MEMORY_LIMIT) and
// gives the warehouse's defaults back when it ends: read from DuckDB itself while the windows commit.
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.js';
import { syncProject } from '../../../src/sources/reporter/run-sync.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const SETTINGS =
  "select current_setting('threads') as threads, current_setting('memory_limit') as memory_limit";

async function settingsOf(w: Warehouse): Promise<{ threads: number; memoryLimit: string }> {
  const [row] = await w.query(SETTINGS);
  return { threads: Number(row!['threads']), memoryLimit: String(row!['memory_limit']) };
}

describe('DuckDB resources of a sync', () => {
  it.each([
    [{}, 1],
    [{ REPORTER_SYNC_DUCKDB_THREADS: '2' }, 2],
  ])(
    'with %j, windows commit with %i DuckDB thread(s) and a smaller pool; the defaults come back after',
    async (env, threads) => {
      h = await createHarness({
        emulator: { sessions: 200, days: 3 },
        // two threads outside the sync (the product's default; the tests run one), so that the sync's one shows
        env: { REPORTER_WINDOW_HOURS: '12', REPORTER_DUCKDB_THREADS: '2', ...env },
      });
      const harness = h;
      const during: Promise<{ threads: number; memoryLimit: string }>[] = [];
      const [before, summary, after] = await harness.withWarehouse(async (warehouse) => {
        const first = await settingsOf(warehouse);
        const run = await syncProject(
          {
            config: harness.config,
            warehouse,
            log: silentLogger(),
            now: () => harness.running.emulator.now(),
            onProgress: () => {
              during.push(settingsOf(warehouse));
            },
          },
          harness.config.projects[0]!,
        );
        return [first, run, await settingsOf(warehouse)] as const;
      });
      expect(summary.status).toBe('success');
      const seen = await Promise.all(during);
      expect(seen.length).toBeGreaterThan(3);
      for (const s of seen) {
        expect(s.threads).toBe(threads);
        expect(s.memoryLimit).not.toBe(before.memoryLimit);
      }
      expect(before.threads).toBe(2);
      expect(after).toEqual(before);
    },
  );
});

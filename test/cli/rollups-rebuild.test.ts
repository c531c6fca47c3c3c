// `reporter-etl rollups rebuild`: a damaged rollup is filled again from the raw rows (the figures then equal
// the raw computation again), --json says the rows of each rollup, and without a warehouse it is a usage error
// naming REPORTER_DATA_DIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { computeStats } from '../../src/analysis/stats/compute-stats.js';
import { rollupsCommand } from '../../src/cli/commands/rollups.js';
import { EtlError, UsageError } from '../../src/errors.js';
import { expectRollupsEqualRaw, rawStatsSql } from '../analysis/stats/rollup-reference.js';
import { createSyncedHarness, type Harness } from '../helpers/sync-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createSyncedHarness(300);
}, 60_000);
afterAll(async () => {
  vi.unstubAllEnvs();
  await h?.close();
});

async function rebuild(args: string[], env: Record<string, string>) {
  for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
  const out: string[] = [];
  const code = await rollupsCommand.run(args, { out: (l) => out.push(l), err: () => {}, isTty: false });
  return { code, out };
}

const query = { timeZone: 'UTC', period: 'day' as const, top: 10, catchAllClass: '/CatchAll' };

describe('rollups rebuild', () => {
  it('fills a damaged rollup again from the raw rows', async () => {
    await h.withWarehouse((w) => w.query('DELETE FROM stat_message_quarters WHERE q % 2 = 0'));
    const damaged = await h.withWarehouse(async (w) => [
      await computeStats(w, query, { now: () => 0 }),
      await computeStats(w, query, { now: () => 0, sql: rawStatsSql() }),
    ]);
    expect(damaged[0]!.totals.messages).toBeLessThan(damaged[1]!.totals.messages);

    const { code, out } = await rebuild(['rebuild', '--json'], h.env);
    expect(code).toBe(0);
    const result = JSON.parse(out.join('\n'));
    const [counts] = await h.withWarehouse((w) =>
      w.query(
        'SELECT (SELECT count(*) FROM sessions) AS sessions, (SELECT count(*) FROM session_data) AS data',
      ),
    );
    expect(result.rebuilt).toBe(true);
    expect(result.tables.stat_sessions).toBe(counts?.['sessions']);
    expect(result.tables.stat_session_data).toBe(counts?.['data']);
    expect(result.tables.stat_message_quarters).toBeGreaterThan(0);
    await h.withWarehouse((w) => expectRollupsEqualRaw(w, [query]));
  }, 60_000);

  it('is a usage error without a warehouse, or without the action', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'reporter-etl-rollups-'));
    try {
      const failed = rebuild(['rebuild'], { ...h.env, REPORTER_DATA_DIR: empty });
      await expect(failed).rejects.toThrow(EtlError);
      await expect(failed).rejects.toMatchObject({ code: 'rollups.no_warehouse', kind: 'usage' });
      await expect(failed).rejects.toThrow(/REPORTER_DATA_DIR: there is no warehouse/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    await expect(rebuild([], h.env)).rejects.toThrow(UsageError);
    await expect(rebuild(['check'], h.env)).rejects.toThrow(/unknown action "check": rollups rebuild/);
  });
});

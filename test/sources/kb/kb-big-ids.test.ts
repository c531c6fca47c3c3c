// int64 ids beyond 2^53 (issue 31, item 4): the knowledge base emulator serves integrations whose ids lie on
// both sides of 2^53 and at int64's largest, written digit for digit. The client reads them exactly (a
// safe id as a number, a larger one as a bigint), `kb sync` loads every one (none quarantined, none taken
// for a duplicate of its rounded neighbour) and stores them exactly in BIGINT, as the emulator's records have
// them; the wire really carries the digits (JSON.parse alone would round them).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { DEFAULT_KB_ADMIN_KEY, DEFAULT_KB_PROJECT_KEY } from '../../../src/emulator/kb/kb-options.js';
import { KB_MAIN_PROJECT_ID } from '../../../src/emulator/kb/kb-world.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/server.js';
import { silentLogger } from '../../../src/log.js';
import { createKbClient } from '../../../src/platform/kb/kb-client.js';
import { kbQueryRecordSchema } from '../../../src/platform/kb/kb-schemas.js';
import { syncKb } from '../../../src/sources/kb/sync-kb.js';
import { parseJsonBigIntegers } from '../../../src/text/parse-json-big-integers.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';
import { makeKbCaller } from '../../helpers/kb-client.js';

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
let dir: string;
let warehouse: Warehouse;
let running: RunningEmulator;

const config = () =>
  loadConfig(
    {
      REPORTER_KB_BASE_URL: running.kbUrl,
      REPORTER_KB_KEY: DEFAULT_KB_PROJECT_KEY,
      REPORTER_KB_ADMIN_KEY: DEFAULT_KB_ADMIN_KEY,
      REPORTER_DATA_DIR: dir,
    },
    { requireToken: false },
  );

/** The emulator's own records: the ground truth, as bigint. */
const truthIds = () => running.emulator.kb.integrationsOf(KB_MAIN_PROJECT_ID).map((i) => i.id);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kb-big-ids-'));
  warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
  running = await startEmulator({ sessions: 50, days: 1, now: Date.parse('2026-11-20T10:00:00Z') });
});
afterAll(async () => {
  await running?.close();
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('knowledge base ids beyond 2^53', () => {
  it('the emulator has ids on both sides of 2^53 and writes every digit on the wire', async () => {
    const ids = truthIds();
    expect(ids.some((id) => id <= SAFE)).toBe(true);
    expect(ids.filter((id) => id > SAFE).length).toBeGreaterThanOrEqual(2);
    const answer = await makeKbCaller(running.kbUrl)('integrations');
    for (const id of ids) expect(answer.text).toContain(`"id":${id}`);
  });

  it('the client reads each id exactly: a safe one as a number, a larger one as a bigint', async () => {
    const client = createKbClient({ config: config().kb, log: silentLogger() });
    try {
      const { records, rejects } = await client.integrations();
      expect(rejects).toEqual([]);
      expect(records.map((r) => BigInt(r.id))).toEqual(truthIds());
      for (const r of records) expect(typeof r.id).toBe(BigInt(r.id) > SAFE ? 'bigint' : 'number');
      // the emulator finds an integration by its big id (the path carries every digit)
      const big = truthIds().find((id) => id > SAFE)!;
      const answer = await makeKbCaller(running.kbUrl)(`integrations/${big}`);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain(`"id":${big}`);
    } finally {
      await client.close();
    }
  });

  it('kb sync stores every integration with its exact id in BIGINT, none quarantined', async () => {
    const summary = await syncKb({
      config: config(),
      warehouse,
      log: silentLogger(),
      now: () => running.emulator.now(),
    });
    expect(summary).toMatchObject({ status: 'success', rejects: 0 });
    const rows = await warehouse.query(
      `SELECT CAST(integration_id AS VARCHAR) AS id, typeof(integration_id) AS type FROM kb_integrations
       WHERE snapshot_id = $id ORDER BY integration_id`,
      { id: summary.snapshotId },
    );
    expect(rows.map((r) => r['id'])).toEqual(truthIds().map(String));
    expect(new Set(rows.map((r) => r['type']))).toEqual(new Set(['BIGINT']));
  });

  it('a generation record keeps its big ids; an id beyond int64 is refused', () => {
    const record = (id: string) =>
      kbQueryRecordSchema.safeParse(
        parseJsonBigIntegers(`{"id":${id},"chatId":7,"status":"FINISHED","relevantSources":[{"id":${id}}]}`),
      );
    const parsed = record('9007199254740993');
    expect(parsed.data?.id).toBe(9_007_199_254_740_993n);
    expect(parsed.data?.relevantSources?.[0]?.id).toBe(9_007_199_254_740_993n);
    expect(record('9007199254740991').data?.id).toBe(9_007_199_254_740_991);
    expect(record('9223372036854775808').success).toBe(false);
  });
});

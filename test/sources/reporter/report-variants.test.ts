// The statuses reports against servers whose report files are not the emulator's own guess (the emulator's
// report shape, src/emulator/reports/report-shape.ts): display or Russian header names, XLSX only (a CSV create
// refused with 400, or CSV asked and XLSX served), columns reversed or shuffled, extra columns (a numeric
// `Message ID` and a status-like column that holds no delivery status), a CSV with a BOM and `;`. In each, the
// sync is exact against the emulator's ground truth and every window's statuses come from its report: no
// messages/by-client nor by-session read at all, one download per task created.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../../src/emulator/emulator.js';
import type { ReportShape } from '../../../src/emulator/reports/report-shape.js';
import {
  createHarness,
  expectWarehouseEqualsTruth,
  type Harness,
  TWELVE_HOUR_WINDOWS,
} from '../../helpers/sync-harness.js';

const HOUR = 3_600_000;
const LAG = 5 * 60_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The requests of the statuses reports and of the per-client reads, from the emulator's request log. */
function countOps(log: readonly RecordedRequest[]) {
  const has = (r: RecordedRequest, part: string, method?: string) =>
    r.url.includes(part) && (method === undefined || r.method === method);
  const creates = log.filter((r) => has(r, '/reports/messages', 'POST'));
  const asked = (type: string) => creates.filter((r) => r.body?.includes(`"fileType":"${type}"`)).length;
  return {
    perClient: log.filter((r) => has(r, '/messages/by-client') || has(r, '/messages/by-session')).length,
    csvCreates: asked('CSV'),
    xlsxCreates: asked('XLSX'),
    downloads: log.filter((r) => has(r, '/reports/files/')).length,
    deletes: log.filter((r) => has(r, '/reports/tasks/', 'DELETE')).length,
  };
}

/** A full sync against a server of `shape`, exact; the harness is the caller's to close. */
async function fullSyncAgainst(shape: Partial<ReportShape>, api: 'v1' | 'legacy' = 'v1') {
  const harness = await createHarness({
    api,
    emulator: { sessions: 700, reportShape: shape },
    env: TWELVE_HOUR_WINDOWS,
  });
  const log: RecordedRequest[] = [];
  harness.running.emulator.requestLog = log;
  const summary = await harness.sync();
  harness.running.emulator.requestLog = undefined;
  return { harness, summary, log };
}

async function expectExact(harness: Harness) {
  const now = harness.running.emulator.now();
  await expectWarehouseEqualsTruth(harness, now - LAG - 4 * 24 * HOUR, now - LAG, ['messageIds', 'statuses']);
}

async function syncAgainst(shape: Partial<ReportShape>, api: 'v1' | 'legacy' = 'v1') {
  const run = await fullSyncAgainst(shape, api);
  h = run.harness;
  expect(run.summary.error).toBeNull();
  await expectExact(h);
  return { ops: countOps(run.log), log: run.log };
}

describe('statuses reports whose files are not the emulator’s own guess', () => {
  it('display header names, columns reversed, extra columns (CSV)', async () => {
    const { ops } = await syncAgainst({ header: 'display', columnOrder: 'reversed', extraColumns: true });
    expect(ops.csvCreates).toBeGreaterThanOrEqual(5);
    expect(ops.downloads).toBe(ops.csvCreates);
    expect(ops.perClient).toBe(0);
  });

  it('Russian header names, columns shuffled, extra columns, a BOM and `;` whatever was asked (legacy API)', async () => {
    const { ops } = await syncAgainst(
      { header: 'ru', columnOrder: 'shuffled', extraColumns: true, csvBom: true, csvDelimiter: ';' },
      'legacy',
    );
    expect(ops.csvCreates).toBeGreaterThanOrEqual(5);
    expect(ops.downloads).toBe(ops.csvCreates);
    expect(ops.perClient).toBe(0);
  });

  it('CSV asked and XLSX served (told by the content), display names, columns shuffled', async () => {
    const { ops } = await syncAgainst({ header: 'display', csv: 'ignored', columnOrder: 'shuffled' });
    expect(ops.xlsxCreates).toBe(0);
    expect(ops.csvCreates).toBeGreaterThanOrEqual(5);
    expect(ops.downloads).toBe(ops.csvCreates);
    expect(ops.perClient).toBe(0);
  });

  /**
   * One full sync against a Russian XLSX-only server (columns reversed, extra columns) serves its own case and
   * the incremental run after it (the last case: it moves the clock).
   */
  describe('a Russian XLSX-only server', () => {
    let xlsxOnly: Awaited<ReturnType<typeof fullSyncAgainst>>;
    beforeAll(async () => {
      xlsxOnly = await fullSyncAgainst({
        header: 'ru',
        csv: 'refused',
        columnOrder: 'reversed',
        extraColumns: true,
      });
    }, 60_000);
    afterAll(() => xlsxOnly?.harness.close());

    it('XLSX only, a create asking CSV answered 400: XLSX asked from then on, Russian header names', async () => {
      expect(xlsxOnly.summary.error).toBeNull();
      await expectExact(xlsxOnly.harness);
      const ops = countOps(xlsxOnly.log);
      // the first report (and one started beside it) asked CSV once; every task is an XLSX one
      expect(ops.csvCreates).toBeGreaterThanOrEqual(1);
      expect(ops.csvCreates).toBeLessThanOrEqual(2);
      expect(ops.xlsxCreates).toBeGreaterThanOrEqual(5);
      expect(ops.downloads).toBe(ops.xlsxCreates);
      expect(ops.deletes).toBe(ops.xlsxCreates);
      expect(ops.perClient).toBe(0);
    });

    it('an incremental run whose look-back takes the reports of a Russian XLSX-only server, exact', async () => {
      const { harness, summary: first } = xlsxOnly;
      expect(first.error).toBeNull();
      const log: RecordedRequest[] = [];
      harness.running.emulator.requestLog = log;
      harness.running.emulator.clock.advance(6 * HOUR);
      const second = await harness.sync();
      expect(second.error).toBeNull();
      expect(second.mode).toBe('incremental');
      await expectExact(harness);
      const ops = countOps(log);
      expect(ops.xlsxCreates).toBeGreaterThanOrEqual(1);
      expect(ops.downloads).toBe(ops.xlsxCreates);
      expect(ops.perClient).toBe(0);
    });
  });
});

// Sync of windows with long question and answer texts against the emulator's ground truth: the window
// bound in bytes (REPORTER_WINDOW_MAX_BYTES), the halving of a window whose commit runs out of DuckDB's
// memory, and the message when even a one-minute window does not fit.
import { afterEach, describe, expect, it } from 'vitest';
import type { TextLengths } from '../../../src/emulator/project-data.js';
import {
  createHarness,
  expectWarehouseEqualsTruth as expectEqualsTruth,
  type Harness,
} from '../../helpers/sync-harness.js';

const HOUR = 3_600_000;
const LAG = 5 * 60_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function createLongTextHarness(texts: TextLengths, env: Record<string, string> = {}) {
  return createHarness({
    emulator: { sessions: 300, days: 3, texts },
    env: { REPORTER_WINDOW_HOURS: '24', ...env },
  });
}

/** The warehouse holds exactly the ground truth of the synced range, texts byte for byte. */
async function expectWarehouseEqualsTruth() {
  const to = h!.running.emulator.now() - LAG;
  const from = to - 4 * 24 * HOUR;
  const truth = await expectEqualsTruth(h!, from, to, [
    'sessionIds',
    'messageIds',
    'messageLabels',
    'statuses',
  ]);
  const [texts] = await h!.withWarehouse((w) =>
    w.query(
      "select sum(strlen(coalesce(question, '')) + strlen(coalesce(text_answer, ''))) as bytes from messages where timestamp >= $1 and timestamp < $2",
      [new Date(from), new Date(to)],
    ),
  );
  expect(texts!['bytes']).toBe(truth.textBytes);
  return truth;
}

describe('sync of long texts', () => {
  it('every message with 1,000-character texts: windows bounded by bytes, the warehouse equals the truth', async () => {
    h = await createLongTextHarness(
      { length: 1000, longEvery: 0, longLength: 0 },
      { REPORTER_SYNC_DUCKDB_MEMORY_LIMIT: '32MB' },
    );
    const summary = await h.sync();
    expect(summary.error).toBeNull();
    expect(summary.status).toBe('success');
    const truth = await expectWarehouseEqualsTruth();
    // 1,000 characters of mixed Cyrillic and Latin are more than 1,000 bytes each
    expect(truth.textBytes).toBeGreaterThan(2 * 1000 * truth.messages);
    // a 32 MB pool bounds a window at a quarter of it: no window held more, so the run took at least as many
    // windows as the texts' bytes need (they are only part of a window's bytes)
    expect(h.config.windowMaxBytes).toBeLessThanOrEqual(8_500_000);
    expect(summary.windows).toBeGreaterThanOrEqual(Math.ceil(truth.textBytes / h.config.windowMaxBytes));
  }, 240_000);

  it('1 in 20 messages with 40,000-character texts: the warehouse equals the truth', async () => {
    h = await createLongTextHarness(
      { length: 0, longEvery: 20, longLength: 40_000 },
      { REPORTER_SYNC_DUCKDB_MEMORY_LIMIT: '48MB' },
    );
    const summary = await h.sync();
    expect(summary.error).toBeNull();
    const truth = await expectWarehouseEqualsTruth();
    expect(truth.textBytes).toBeGreaterThan((2 * 40_000 * truth.messages) / 20 / 2);
  }, 240_000);

  it('when even a one-minute window does not fit, the run fails naming the settings, not DuckDB SET statements', async () => {
    h = await createLongTextHarness(
      { length: 1000, longEvery: 0, longLength: 0 },
      { REPORTER_SYNC_DUCKDB_MEMORY_LIMIT: '12MB', REPORTER_WINDOW_MAX_BYTES: '1GB' },
    );
    const summary = await h.sync();
    expect(summary.status).toBe('failed');
    expect(summary.error).toContain('REPORTER_SYNC_DUCKDB_MEMORY_LIMIT');
    expect(summary.error).toContain('REPORTER_WINDOW_MAX_SESSIONS');
    expect(summary.error).not.toMatch(/\bSET\b/);
    // nothing of a window that did not fit was written, and the watermark did not pass it
    const runs = await h.withWarehouse((w) => w.listRuns({ limit: 1 }));
    expect(runs[0]).toMatchObject({ status: 'failed' });
  }, 240_000);
});

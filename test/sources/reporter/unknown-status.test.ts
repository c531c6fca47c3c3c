// A delivery status the platform added after the client was written (the emulator's `newStatus`: a share of
// the status channels' answers end in QUEUED): the sync keeps it as given, loads every record (exit 0, no
// rejects), counts it per field in its summary and run record, warns once per value, and the statistics
// count it under `other`. Every figure is compared with the emulator's ground truth.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeStats } from '../../../src/analysis/stats/compute-stats.js';
import { type SyncSummary, syncProject } from '../../../src/sources/reporter/run-sync.js';
import { createHarness, type Harness, warehouseFigures } from '../../helpers/sync-harness.js';

const NEW_STATUS = 'QUEUED';

let h: Harness;
let summary: SyncSummary;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  h = await createHarness({
    emulator: { sessions: 600, days: 1, newStatus: { status: NEW_STATUS, share: 0.2 } },
    env: { REPORTER_HISTORY_DAYS: '1' },
  });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim() !== '') logLines.push(JSON.parse(line));
      done();
    },
  });
  summary = await h.withWarehouse((warehouse) =>
    syncProject(
      {
        config: h.config,
        warehouse,
        log: pino({ level: 'warn' }, sink),
        now: () => h.running.emulator.now(),
      },
      h.config.projects[0]!,
    ),
  );
}, 60_000);
afterAll(async () => {
  await h?.close();
});

/** The ground truth's messages in NEW_STATUS over the synced range, per channel and in all. */
function truthOfNewStatus(): { perChannel: Record<string, number>; total: number } {
  const truth = h.truth(Date.parse(summary.from!), Date.parse(summary.to!));
  const perChannel: Record<string, number> = {};
  for (const [channel, statuses] of Object.entries(truth.statuses))
    if (statuses[NEW_STATUS]) perChannel[channel] = statuses[NEW_STATUS];
  return { perChannel, total: Object.values(perChannel).reduce((a, b) => a + b, 0) };
}

describe('a delivery status the client does not know', () => {
  it('ends the sync as a success: nothing is quarantined', async () => {
    expect(summary).toMatchObject({ status: 'success', exitCode: 0, rejects: 0 });
    const rejects = await h.withWarehouse((w) => w.query('SELECT count(*) AS n FROM etl_rejects'));
    expect(Number(rejects[0]!['n'])).toBe(0);
  });

  it('keeps the value as given on every message that has it', async () => {
    const from = Date.parse(summary.from!);
    const to = Date.parse(summary.to!);
    const truth = h.truth(from, to);
    expect(truthOfNewStatus().total).toBeGreaterThan(10);
    const figures = await h.withWarehouse((w) => warehouseFigures(w, from, to));
    expect(figures.statuses).toEqual(truth.statuses);
  });

  it('counts the value per field in the summary and the run record, and warns once', async () => {
    const { total } = truthOfNewStatus();
    expect(summary.unknownValues).toEqual({ 'message.status': { [NEW_STATUS]: total } });
    const [run] = await h.withWarehouse((w) =>
      w.query('SELECT CAST(unknown_values AS VARCHAR) AS v FROM etl_runs WHERE run_id = $1', [summary.runId]),
    );
    expect(JSON.parse(String(run!['v']))).toEqual({ 'message.status': { [NEW_STATUS]: total } });
    const warnings = logLines.filter((l) => l['field'] === 'message.status' && l['value'] === NEW_STATUS);
    expect(warnings).toHaveLength(1);
  });

  it('shows it under `other` in the delivery funnel', async () => {
    const { perChannel } = truthOfNewStatus();
    const from = Date.parse(summary.from!);
    const to = Date.parse(summary.to!);
    const stats = await h.withWarehouse((w) =>
      computeStats(w, { from, to, timeZone: 'UTC', period: 'day', top: 5, catchAllClass: '/CatchAll' }),
    );
    const other = Object.fromEntries(stats.deliveryFunnel.map((f) => [f.channel, f.other]));
    expect(other).toEqual({
      telegram: perChannel['telegram'] ?? 0,
      viber: perChannel['viber'] ?? 0,
      vk: perChannel['vk'] ?? 0,
    });
    expect(Object.values(other).some((n) => n > 0)).toBe(true);
  });
});

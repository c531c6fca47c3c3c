// Alert rules evaluated after each sync, against the emulator: the value is the ground truth's over the rule's
// period; a rule fires once when it starts to hold, stays quiet while it holds, resolves once when it stops;
// every change is in the alerts table and in the run's notification as the emulated Pushgate received it.
import { afterEach, describe, expect, it } from 'vitest';
import { syncJob } from '../../../jobs/sync.js';
import { evaluateAlerts } from '../../../src/analysis/alerts/evaluate-alerts.js';
import { type Config, loadConfig } from '../../../src/config.js';
import { DEFAULT_PUSHBACK_ID } from '../../../src/emulator/pushgate/pushgate.js';
import { silentLogger } from '../../../src/log.js';
import type { UseWarehouse } from '../../../src/manage/use-warehouse.js';
import { type FinishedJobRun, JobRunner } from '../../../src/schedule/job-runner.js';
import type { AlertChange } from '../../../src/settings/alert-rules.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import { runCli } from '../../helpers/run-cli.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';
import { makeTempDir } from '../../warehouse/fixtures.js';

const HOUR = 3_600_000;
const PERIOD_HOURS = 2;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function runnerFor(harness: Harness, config: Config): JobRunner {
  const now = () => harness.running.emulator.now();
  const useWarehouse: UseWarehouse = async (fn) => {
    const w = await openWarehouse({ path: config.warehousePath, lockWaitMs: 2000, now });
    try {
      return await fn(w);
    } finally {
      await w.close();
    }
  };
  return new JobRunner({ config, log: silentLogger(), useWarehouse, now, notifyBackoffBaseMs: 5 });
}

/** The truth's transfer share over the rule's period ending now (the emulator clock). */
function truthShare(harness: Harness): number {
  const now = harness.running.emulator.now();
  const t = harness.truth(now - PERIOD_HOURS * HOUR, now);
  return t.transferredSessions / t.sessions;
}

describe('alerts', () => {
  it('fire once when a rule starts to hold and once when it stops, with the truth value, in the notification', async () => {
    h = await createHarness({
      emulator: { sessions: 1200, days: 3 },
      env: { REPORTER_SAFETY_LAG_MINUTES: '0' },
    });
    const clock = h.running.emulator.clock;
    // a moment whose period has transfers, so the share can drop below it later
    let s1 = truthShare(h);
    for (let n = 0; n < 48 && s1 < 0.05; n++) {
      clock.advance(HOUR);
      s1 = truthShare(h);
    }
    expect(s1).toBeGreaterThanOrEqual(0.05);
    const threshold = Number((s1 - 0.0005).toFixed(6));
    const config = loadConfig({
      ...h.env,
      REPORTER_PUSHGATE_URL: `${h.running.url}/pushgate/push_${DEFAULT_PUSHBACK_ID}`,
      REPORTER_ALERTS: JSON.stringify([
        { name: 'transfers', metric: 'transferShare', above: threshold, periodHours: PERIOD_HOURS },
        { name: 'quiet', metric: 'hoursSinceLastSession', above: 1000 },
      ]),
    });
    const runner = runnerFor(h, config);
    const received = () => h!.running.emulator.pushgate.receipts(DEFAULT_PUSHBACK_ID);

    const first = (await runner.run(syncJob, 'schedule')) as FinishedJobRun;
    expect(first.status, first.error ?? '').toBe('success');
    // the same moment again: the rule still holds, nothing new
    const second = (await runner.run(syncJob, 'schedule')) as FinishedJobRun;
    expect(second.status, second.error ?? '').toBe('success');

    // later, when the truth says the share is no longer above the threshold
    let s2 = truthShare(h);
    for (let n = 0; n < 96 && s2 > threshold; n++) {
      clock.advance(HOUR);
      s2 = truthShare(h);
    }
    expect(s2).toBeLessThanOrEqual(threshold);
    const third = (await runner.run(syncJob, 'schedule')) as FinishedJobRun;
    expect(third.status, third.error ?? '').toBe('success');

    const events = received().map((r) => r.body as { eventId: string; job: string; alerts: AlertChange[] });
    expect(events.map((e) => [e.eventId, e.job])).toEqual([
      [first.runId, 'sync'],
      [third.runId, 'sync'],
    ]);
    const [fired] = events[0]!.alerts;
    const [resolved] = events[1]!.alerts;
    expect(events[0]!.alerts).toHaveLength(1);
    expect(events[1]!.alerts).toHaveLength(1);
    expect(fired).toMatchObject({ project: 'shop-bot', rule: 'transfers', state: 'firing', threshold });
    expect(fired!.value).toBeCloseTo(s1, 12);
    expect(resolved).toMatchObject({ project: 'shop-bot', rule: 'transfers', state: 'resolved', threshold });
    expect(resolved!.value).toBeCloseTo(s2, 12);

    const rows = await h.withWarehouse((w) =>
      w.query('SELECT rule, state, run_id, value FROM alerts ORDER BY alerted_at'),
    );
    expect(rows.map((r) => [r['rule'], r['state'], r['run_id']])).toEqual([
      ['transfers', 'firing', first.runId],
      ['transfers', 'resolved', third.runId],
    ]);
    const runs = await h.withWarehouse((w) => w.listRuns({ job: 'sync', limit: 10 }));
    const notified = new Map(runs.map((r) => [r.runId, r.notification]));
    expect([first, second, third].map((r) => notified.get(r.runId))).toEqual(['sent', null, 'sent']);

    // `runs` shows them, newest first
    const json = JSON.parse((await runCli(['runs', '--json'], h.env)).stdout) as {
      alerts: { rule: string; state: string; runId: string }[];
    };
    expect(json.alerts.map((a) => [a.rule, a.state, a.runId])).toEqual([
      ['transfers', 'resolved', third.runId],
      ['transfers', 'firing', first.runId],
    ]);
    const text = (await runCli(['runs'], h.env)).stdout;
    expect(text).toContain('Alerts (newest first):');
    expect(text).toMatch(/resolved\s+transfers\s+shop-bot\s+shop-bot: transferShare/);
  });

  it('hoursSinceLastSession: no session at all holds (fires once); a session within the hours resolves it', async () => {
    const temp = makeTempDir();
    const now = Date.UTC(2026, 10, 21, 12);
    const w = await openWarehouse({ path: `${temp.dir}/warehouse.duckdb`, lockWaitMs: 1000, now: () => now });
    try {
      const rules = [
        { name: 'silence', metric: 'hoursSinceLastSession' as const, above: 3, periodHours: 24 },
      ];
      const evaluate = () =>
        evaluateAlerts({ warehouse: w, rules, projects: ['quiet-bot'], now, timeZone: 'UTC', runId: 'r' });
      expect(await evaluate()).toEqual([
        expect.objectContaining({ rule: 'silence', state: 'firing', value: null, threshold: 3 }),
      ]);
      expect(await evaluate()).toEqual([]);
      await w.query(
        'INSERT INTO sessions (project, session_id, start_time, synced_at) VALUES ($p, $s, $t, $t)',
        { p: 'quiet-bot', s: 'S1', t: new Date(now - 90 * 60_000) },
      );
      const [resolved] = await evaluate();
      expect(resolved).toMatchObject({ state: 'resolved', value: 1.5 });
      expect(await evaluate()).toEqual([]);
    } finally {
      await w.close();
      temp.cleanup();
    }
  });
});

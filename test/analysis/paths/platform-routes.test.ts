// The paths reconciled with the platform's routes (state_routes, read by the state-routes source from the
// emulator's state-routes/filter): per channel, route and result the platform's sessions equal ours where
// the definitions agree, and the columns that say why our paths differ (more than five states, an agent's
// messages, the path itself) are counted from the emulator's own sessions, not from the warehouse. A day the
// source did not read, and a platform count changed by hand, show as such.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computePaths } from '../../../src/analysis/paths/compute-paths.js';
import type { PathsReport } from '../../../src/analysis/paths/paths-report.js';
import { pathTruth } from '../../../src/emulator/path-truth.js';
import { stateRoutesSource } from '../../../src/sources/state-routes/source.js';
import { createHarness, type Harness, runSourceOnce } from '../../helpers/sync-harness.js';

const DAY = 86_400_000;

interface Expected {
  platform: number;
  cut: number;
  agent: number;
  same: number;
}

describe("the paths beside the platform's routes", () => {
  let h: Harness;
  const to = Date.parse('2026-10-31T00:00:00Z');
  // a period that cuts days: only its whole UTC days are compared
  const from = to - 7 * DAY - 5 * 3_600_000;
  const compute = () =>
    h.withWarehouse((w) =>
      computePaths(
        w,
        { from, to, timeZone: 'UTC', top: 10, catchAllClass: '/CatchAll' },
        { now: () => h.running.emulator.now() },
      ),
    );
  /** Per `channel|route|result`, from the emulator's messages by the platform's rule and by ours. */
  function expected(dayFrom: number, dayTo: number): Map<string, Expected> {
    const p = h.running.emulator.project('shop-bot');
    const now = h.running.emulator.now();
    const ours = new Map(pathTruth(p, { from: dayFrom, to: dayTo, now }).paths.map((x) => [x.sessionId, x]));
    const out = new Map<string, Expected>();
    for (let i = 0; i < p.skeleton.sessionCount; i++) {
      const start = p.skeleton.start.get(i);
      if (start < dayFrom || start >= dayTo) continue;
      const states: string[] = [];
      let agent = false;
      for (let k = 0; k < p.skeleton.visibleMessageCount(i, now); k++) {
        const facts = p.messageFacts(i, k);
        agent ||= facts.isLivechat;
        const state = facts.nlpState ?? '/';
        if (states[states.length - 1] !== state) states.push(state);
      }
      const route = states.slice(0, 5).join(' > ');
      const key = `${p.channelOf(i)}|${route}|${p.sessionResult(i)}`;
      const row = out.get(key) ?? { platform: 0, cut: 0, agent: 0, same: 0 };
      row.platform++;
      if (states.length > 5) row.cut++;
      if (agent) row.agent++;
      if (ours.get(p.sessionId(i))!.states.join(' > ') === route) row.same++;
      out.set(key, row);
    }
    return out;
  }
  let report: PathsReport;
  beforeAll(async () => {
    h = await createHarness({
      emulator: { sessions: 1500, days: 10 },
      env: { REPORTER_HISTORY_DAYS: '11', REPORTER_SAFETY_LAG_MINUTES: '0', REPORTER_WINDOW_HOURS: '48' },
    });
    expect((await h.sync()).status).toBe('success');
    expect((await runSourceOnce(h, stateRoutesSource)).status).toBe('success');
    report = await compute();
  }, 180_000);
  afterAll(() => h?.close());

  it('compares the whole UTC days of the period, every route equal where the definitions agree', () => {
    const p = report.platform;
    const dayFrom = to - 7 * DAY;
    expect({ dayFrom: p.dayFrom, dayTo: p.dayTo, days: p.daysCompared, notSynced: p.daysNotSynced }).toEqual({
      dayFrom: '2026-10-24',
      dayTo: '2026-10-31',
      days: 7,
      notSynced: 0,
    });
    const truth = expected(dayFrom, to);
    const sessions = [...truth.values()].reduce((n, r) => n + r.platform, 0);
    expect(p.platformSessions).toBe(sessions);
    expect(p.ourSessions).toBe(sessions);
    expect(p.routes).toBe(truth.size);
    expect(p.routesDiffering).toBe(0);
    const sum = (key: keyof Expected) => [...truth.values()].reduce((n, r) => n + r[key], 0);
    expect({ same: p.sameSessions, cut: p.cutSessions, agent: p.agentSessions }).toEqual({
      same: sum('same'),
      cut: sum('cut'),
      agent: sum('agent'),
    });
    expect(sum('cut')).toBeGreaterThan(0);
    expect(sum('agent')).toBeGreaterThan(0);
    expect(p.rows.length).toBe(Math.min(50, truth.size));
    for (const r of p.rows)
      expect({
        key: `${r.channel}|${r.route}|${r.result}`,
        platform: r.platform,
        ours: r.ours,
        cut: r.cut,
        agent: r.agent,
        same: r.same,
      }).toEqual({
        key: `${r.channel}|${r.route}|${r.result}`,
        ours: truth.get(`${r.channel}|${r.route}|${r.result}`)!.platform,
        ...truth.get(`${r.channel}|${r.route}|${r.result}`)!,
      });
  });

  it('shows a platform count that differs first, and a day the source did not read as not synced', async () => {
    const changed = report.platform.rows[3]!;
    const day = await h.withWarehouse(async (w) => {
      const rows = await w.query(
        `select day::VARCHAR as day from state_routes where channel_type = $1 and route = $2 and result = $3
         and day >= '2026-10-24' and day < '2026-10-31' order by day limit 1`,
        [changed.channel, changed.route, changed.result],
      );
      const d = String(rows[0]!['day']);
      await w.query(
        `update state_routes set sessions = sessions + 2 where day = $1::DATE and channel_type = $2 and route = $3 and result = $4`,
        [d, changed.channel, changed.route, changed.result],
      );
      return d;
    });
    const skipped = day === '2026-10-27' ? '2026-10-28' : '2026-10-27';
    const skippedSessions = h.truth(Date.parse(skipped), Date.parse(skipped) + DAY).sessions;
    await h.withWarehouse((w) => w.query(`delete from state_routes where day = $1::DATE`, [skipped]));
    const p = (await compute()).platform;
    expect({ days: p.daysCompared, notSynced: p.daysNotSynced, sessions: p.sessionsNotSynced }).toEqual({
      days: 6,
      notSynced: 1,
      sessions: skippedSessions,
    });
    expect(p.routesDiffering).toBe(1);
    expect(p.rows[0]).toMatchObject({
      channel: changed.channel,
      route: changed.route,
      result: changed.result,
      differing: 2,
    });
    expect(p.rows[0]!.platform - p.rows[0]!.ours).toBe(2);
  });
});

// `computePaths` over a month of synced emulator data, judged by the emulator's path truth (src/emulator/
// path-truth.ts: each session's path made from the generator's facts, not from the warehouse or this code):
// every state's reach, steps, drop-off, transfers and catch-all answers after it, every transition and every
// route, for every channel together and per channel, exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computePaths } from '../../../src/analysis/paths/compute-paths.js';
import type { ChannelPaths, PathsReport } from '../../../src/analysis/paths/paths-report.js';
import { type PathCounts, type PathTruth, pathTruth } from '../../../src/emulator/path-truth.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';

const DAY = 86_400_000;
/** Longer than any list, so every transition and route is returned. */
const EVERYTHING = 100_000;

/** The figures of the report in the truth's shape. */
function asCounts(c: Pick<ChannelPaths, 'totals' | 'states' | 'transitions' | 'routes'>): PathCounts {
  const out: PathCounts = {
    sessions: c.totals.sessions,
    withPath: c.totals.withPath,
    states: {},
    transitions: {},
    routes: {},
  };
  for (const s of c.states)
    out.states[s.state] = {
      reached: s.reached,
      steps: s.steps,
      endedAfterAnswer: s.endedAfterAnswer,
      endedAfterCatchAll: s.endedAfterCatchAll,
      endedWithAgent: s.endedWithAgent,
      agentAfter: s.agentAfter,
      catchAllAfter: s.catchAllAfter,
      catchAllQuestionsAfter: -1,
    };
  for (const t of c.transitions)
    out.transitions[`${t.from} > ${t.to}`] = { sessions: t.sessions, times: t.times };
  for (const r of c.routes) out.routes[r.route] = r.sessions;
  return out;
}

function withoutQuestions(c: PathCounts): PathCounts {
  const states = Object.fromEntries(
    Object.entries(c.states).map(([k, s]) => [k, { ...s, catchAllQuestionsAfter: -1 }]),
  );
  return { ...c, states };
}

describe('computePaths against the emulator truth, over a month', () => {
  let h: Harness;
  let report: PathsReport;
  let truth: PathTruth;
  const to = Date.parse('2026-10-31T00:00:00Z');
  const from = to - 30 * DAY;
  beforeAll(async () => {
    h = await createHarness({
      emulator: { sessions: 3000, days: 32 },
      env: { REPORTER_HISTORY_DAYS: '33', REPORTER_SAFETY_LAG_MINUTES: '0', REPORTER_WINDOW_HOURS: '48' },
    });
    expect((await h.sync()).status).toBe('success');
    const query = { from, to, timeZone: 'UTC', top: EVERYTHING, catchAllClass: '/CatchAll' };
    report = await h.withWarehouse((w) => computePaths(w, query, { now: () => h.running.emulator.now() }));
    const now = h.running.emulator.now();
    truth = pathTruth(h.running.emulator.project('shop-bot'), { from, to, now });
  }, 240_000);
  afterAll(() => h?.close());

  it('has a month with enough of every ending to mean something', () => {
    expect(truth.all.sessions).toBeGreaterThan(2000);
    const endings = new Set(truth.paths.map((p) => p.ending));
    expect(endings).toEqual(new Set([null, 'end', 'catch-all', 'agent']));
    expect(Object.keys(truth.all.transitions).length).toBeGreaterThan(40);
  });

  it('counts every state, transition and route of every channel together exactly as the truth', () => {
    expect(asCounts(report)).toEqual(withoutQuestions(truth.all));
  });

  it('counts them per channel exactly as the truth', () => {
    const channels = report.byChannel.map((c) => c.channel);
    expect(channels).toEqual(Object.keys(truth.byChannel).sort());
    for (const c of report.byChannel)
      expect({ channel: c.channel, ...asCounts(c) }).toEqual({
        channel: c.channel,
        ...withoutQuestions(truth.byChannel[c.channel]!),
      });
  });

  it('sums the endings into the totals and ranks the states by drop-off', () => {
    let afterAnswer = 0;
    let afterCatchAll = 0;
    let agent = 0;
    for (const p of truth.paths) {
      if (p.ending === 'end') afterAnswer++;
      if (p.ending === 'catch-all') afterCatchAll++;
      if (p.ending === 'agent') agent++;
    }
    expect(report.totals).toMatchObject({
      endedAfterAnswer: afterAnswer,
      endedAfterCatchAll: afterCatchAll,
      endedWithAgent: agent,
      withoutPath: truth.paths.filter((p) => p.ending === null).length,
      routes: Object.keys(truth.all.routes).length,
    });
    const dropOff = report.states.map((s) => s.droppedOff);
    expect(dropOff).toEqual([...dropOff].sort((a, b) => b - a));
    for (const s of report.states)
      expect(s.droppedOff).toBe(
        truth.all.states[s.state]!.endedAfterAnswer + truth.all.states[s.state]!.endedAfterCatchAll,
      );
  });
});

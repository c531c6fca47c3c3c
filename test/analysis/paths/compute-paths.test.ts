// `computePaths` over a month of synced emulator data, judged by the emulator's path truth (src/emulator/
// path-truth.ts: each session's path made from the generator's facts, not from the warehouse or this code):
// every state's reach, steps, drop-off, transfers and catch-all answers after it, every transition and every
// route, for every channel together and per channel, exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computePaths } from '../../../src/analysis/paths/compute-paths.js';
import type { ChannelPaths, PathsReport } from '../../../src/analysis/paths/paths-report.js';
import { computeUnhandled } from '../../../src/analysis/unhandled/compute-unhandled.js';
import { runPaths } from '../../../src/cli/commands/paths.js';
import { runStats } from '../../../src/cli/commands/stats.js';
import { type PathCounts, type PathTruth, pathTruth } from '../../../src/emulator/path-truth.js';
import { silentLogger } from '../../../src/log.js';
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
  const iso = (t: number) => new Date(t).toISOString();
  /** Runs a command in-process; its stdout lines and exit code. */
  const run = async (command: typeof runPaths, ...args: string[]) => {
    const out: string[] = [];
    const io = { out: (line: string) => out.push(line), err: () => {}, isTty: false };
    const deps = { env: h.env, now: () => h.running.emulator.now(), log: silentLogger() };
    const code = await command(args, io, deps);
    return { code, out };
  };
  /** The truth's states ranked by drop-off, then by sessions reached, then by name. */
  const truthByDropOff = (counts: PathCounts) =>
    Object.entries(counts.states)
      .map(([state, s]) => ({
        state,
        reached: s.reached,
        droppedOff: s.endedAfterAnswer + s.endedAfterCatchAll,
      }))
      .sort((a, b) => b.droppedOff - a.droppedOff || b.reached - a.reached || (a.state < b.state ? -1 : 1));
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

  it('paths --json prints the same figures; --channel keeps one channel, exact against its truth', async () => {
    const all = await run(runPaths, '--json', '--from', iso(from), '--to', iso(to));
    expect(all.code).toBe(0);
    const json = JSON.parse(all.out.join('\n')) as PathsReport;
    expect(json.totals).toEqual(report.totals);
    expect(json.states.map((s) => s.state)).toEqual(report.states.map((s) => s.state));
    const telegram = await run(
      runPaths,
      '--json',
      '--from',
      iso(from),
      '--to',
      iso(to),
      '--channel',
      'TELEGRAM',
    );
    const one = JSON.parse(telegram.out.join('\n')) as PathsReport;
    expect(one.filters.channels).toEqual(['telegram']);
    const t = truth.byChannel['telegram']!;
    expect({ sessions: one.totals.sessions, withPath: one.totals.withPath }).toEqual({
      sessions: t.sessions,
      withPath: t.withPath,
    });
    for (const s of one.states)
      expect([s.state, s.reached, s.agentAfter]).toEqual([
        s.state,
        t.states[s.state]!.reached,
        t.states[s.state]!.agentAfter,
      ]);
  });

  it('paths prints the states ranked by drop-off, by transfers after them, by catch-all answers after them', async () => {
    const firstState = async (...args: string[]) => {
      const { code, out } = await run(runPaths, '--from', iso(from), '--to', iso(to), ...args);
      expect(code).toBe(0);
      const header = out.findIndex((l) => l.trim().startsWith('state '));
      return out[header + 1]!.trim().split(/\s{2,}/)[0];
    };
    const top = (key: 'agentAfter' | 'catchAllAfter') =>
      Object.entries(truth.all.states).sort(
        (a, b) => b[1][key] - a[1][key] || b[1].reached - a[1].reached,
      )[0]![0];
    expect(await firstState()).toBe(truthByDropOff(truth.all)[0]!.state);
    expect(await firstState('--rank', 'agent')).toBe(top('agentAfter'));
    expect(await firstState('--rank', 'catch-all')).toBe(top('catchAllAfter'));
    await expect(run(runPaths, '--channel', 'fax')).rejects.toThrow(
      /--channel: the warehouse holds no session of channel "fax"/,
    );
    await expect(run(runPaths, '--rank', 'loud')).rejects.toThrow(
      /--rank expects one of drop-off, agent, catch-all/,
    );
  });

  it("stats --json's key paths holds the top drop-off states of its window, as the truth ranks them", async () => {
    const { code, out } = await run(runStats, '--json', '--from', iso(from), '--to', iso(to), '--top', '5');
    expect(code).toBe(0);
    const json = JSON.parse(out.join('\n')) as {
      paths: { withPath: number; states: { state: string; reached: number; droppedOff: number }[] };
    };
    expect(json.paths.withPath).toBe(truth.all.withPath);
    expect(
      json.paths.states.map((s) => ({ state: s.state, reached: s.reached, droppedOff: s.droppedOff })),
    ).toEqual(truthByDropOff(truth.all).slice(0, 5));
  });

  it("leaves stats --json's key paths null, saying why, above --paths-max-messages (stats stays quick at any size)", async () => {
    const args = ['--json', '--from', iso(from), '--to', iso(to)];
    const { code, out } = await run(runStats, ...args, '--paths-max-messages', '10');
    expect(code).toBe(0);
    const json = JSON.parse(out.join('\n')) as {
      totals: { messages: number };
      paths: unknown;
      pathsNote: string | null;
    };
    expect(json.totals.messages).toBeGreaterThan(10);
    expect(json.paths).toBeNull();
    expect(json.pathsNote).toContain(`${json.totals.messages.toLocaleString('en-US')} messages`);
    expect(json.pathsNote).toContain('reporter-etl paths');
    // at the limit exactly, and with no limit, they are computed
    for (const max of [String(json.totals.messages), '0']) {
      const at = JSON.parse((await run(runStats, ...args, '--paths-max-messages', max)).out.join('\n'));
      expect(at.pathsNote).toBeNull();
      expect(at.paths.withPath).toBe(truth.all.withPath);
    }
    await expect(run(runStats, '--paths-max-messages', '10')).rejects.toThrow(/applies to --json/);
    await expect(run(runStats, '--json', '--paths-max-messages', 'many')).rejects.toThrow(
      /--paths-max-messages/,
    );
  });

  it('puts the catch-all questions after each state in the clusters of the stored unhandled run of the period', async () => {
    const query = { catchAllClass: '/CatchAll', from, to };
    await h.withWarehouse((w) => computeUnhandled(w, query, new Date(h.running.emulator.now())));
    const withRun = await h.withWarehouse((w) =>
      computePaths(w, { ...query, timeZone: 'UTC', top: 10 }, { now: () => h.running.emulator.now() }),
    );
    expect(withRun.unhandledRun?.inClusters).toBeGreaterThan(0);
    for (const s of withRun.states) {
      const questions = (s.clusters ?? []).reduce((n, c) => n + c.questions, 0);
      expect([s.state, questions]).toEqual([s.state, truth.all.states[s.state]!.catchAllQuestionsAfter]);
    }
  });

  it("gives the routes the previous period's figures only where the synced data covers it", async () => {
    // the month's previous month is before the synced history: no change, the note says how much is held
    const first = h.running.emulator.project('shop-bot').skeleton.start.get(0);
    const held = Math.floor(((from - first) / (30 * DAY)) * 100);
    expect(report.previous).toMatchObject({ covered: false, withPath: null });
    expect(report.previous.note).toBe(`n/a: the previous period is ${held} % covered`);
    expect(report.routes.every((r) => r.previous.sessions === null && r.previous.change === null)).toBe(true);
    // its last week: the week before is covered, each top route's sessions there as the truth counts them
    const weekFrom = to - 7 * DAY;
    const week = await h.withWarehouse((w) =>
      computePaths(w, { from: weekFrom, to, timeZone: 'UTC', top: 15, catchAllClass: '/CatchAll' }),
    );
    const now = h.running.emulator.now();
    const before = pathTruth(h.running.emulator.project('shop-bot'), {
      from: weekFrom - 7 * DAY,
      to: weekFrom,
      now,
    });
    expect(week.previous).toMatchObject({ covered: true, note: null, withPath: before.all.withPath });
    for (const r of week.routes) {
      const sessions = before.all.routes[r.route] ?? 0;
      expect({ route: r.route, sessions: r.previous.sessions }).toEqual({ route: r.route, sessions });
      expect(r.previous.change).toBe(sessions === 0 ? null : r.sessions / sessions - 1);
    }
  });
});

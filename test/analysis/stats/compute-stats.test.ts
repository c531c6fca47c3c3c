// stats over a warehouse synced from the emulator: every figure compared with what the test computes itself
// from the emulator's ground truth and project data (never with the stats SQL), in UTC and Europe/Moscow,
// with a channel filter, on an empty window; bad input is refused naming the option; --json and tables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeStats } from '../../../src/analysis/stats/compute-stats.js';
import type { StatsQuery, StatsReport } from '../../../src/analysis/stats/stats-report.js';
import { runStats } from '../../../src/cli/commands/stats.js';
import type { ProjectData } from '../../../src/emulator/project-data.js';
import { UsageError } from '../../../src/errors.js';
import { silentLogger } from '../../../src/log.js';
import { parseZonedTime } from '../../../src/time/parse-zoned-time.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';
import { expectedStats, mean, quantileCont } from './expected-stats.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MSK = 3 * HOUR;
const iso = (t: number) => new Date(t).toISOString();

let h: Harness;
let p: ProjectData;
let now: number;

beforeAll(async () => {
  h = await createHarness({ emulator: { sessions: 900 }, env: { REPORTER_SAFETY_LAG_MINUTES: '0' } });
  expect((await h.sync()).status).toBe('success');
  p = h.running.emulator.project('shop-bot');
  now = h.running.emulator.now();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

function stats(query: Partial<StatsQuery>): Promise<StatsReport> {
  return h.withWarehouse((w) =>
    computeStats(
      w,
      { timeZone: 'UTC', period: 'day', top: 100, catchAllClass: '/CatchAll', ...query },
      { now: () => now },
    ),
  );
}

async function cli(args: string[]) {
  const out: string[] = [];
  const code = await runStats(
    args,
    { out: (l) => out.push(l), err: () => {}, isTty: true },
    {
      env: h.env,
      now: () => now,
      log: silentLogger(),
    },
  );
  return { code, text: out.join('\n') };
}

const counts = (rows: { labelId: number; count: number }[]) =>
  new Map(rows.filter((r) => r.count > 0).map((r) => [r.labelId, r.count]));

describe('stats over the warehouse', () => {
  it('one UTC day: every figure equals the emulator’s own', async () => {
    const from = Date.parse('2026-10-30T00:00:00Z');
    const to = from + DAY;
    const truth = h.truth(from, to);
    const e = expectedStats(p, { from, to, now, unit: 'day', offset: 0 });
    const r = await stats({ from, to });
    expect(truth.sessions).toBeGreaterThan(200);

    expect(r.window).toEqual({
      from: iso(from),
      to: iso(to),
      requestedFrom: iso(from),
      requestedTo: iso(to),
    });
    expect(r.empty).toBe(false);
    expect(r.totals).toMatchObject({
      sessions: truth.sessions,
      nonEmptySessions: truth.nonEmptySessions,
      messages: truth.messages,
      uniqueClients: truth.uniqueClients,
      transferredSessions: truth.transferredSessions,
      newClients: e.newClients,
      returningClients: truth.uniqueClients - e.newClients,
    });
    expect(e.newClients).toBeGreaterThan(0);
    expect(truth.uniqueClients - e.newClients).toBeGreaterThan(0);
    expect(r.totals.transferShare).toBeCloseTo(truth.transferredSessions / truth.sessions, 12);
    for (const [name, values] of [
      ['messagesPerSession', e.messageCounts],
      ['sessionDurationMs', e.durations],
    ] as const) {
      const d = r.totals[name]!;
      expect(d.mean).toBeCloseTo(mean(values), 6);
      expect(d.p50).toBeCloseTo(quantileCont(values, 0.5), 6);
      expect(d.p90).toBeCloseTo(quantileCont(values, 0.9), 6);
      expect(d.p99).toBeCloseTo(quantileCont(values, 0.99), 6);
    }

    expect(r.byChannel.map((c) => c.channel)).toEqual(Object.keys(truth.byChannel).sort());
    for (const c of r.byChannel) {
      const x = e.byChannel.get(c.channel!)!;
      expect(c).toMatchObject({
        sessions: truth.byChannel[c.channel!]!.sessions,
        messages: truth.byChannel[c.channel!]!.messages,
        nonEmptySessions: x.nonEmpty,
        uniqueClients: x.clients.size,
        transferredSessions: x.transferred,
      });
    }
    expect(r.byPeriod).toEqual([
      {
        period: '2026-10-30',
        start: iso(from),
        sessions: truth.sessions,
        messages: truth.messages,
        uniqueClients: truth.uniqueClients,
        transferredSessions: truth.transferredSessions,
      },
    ]);

    expect(r.sessionLabels).toHaveLength(p.state.sessionLabels.size);
    expect(counts(r.sessionLabels)).toEqual(e.sessionLabels);
    expect(
      Object.fromEntries(r.sessionLabels.filter((l) => l.count > 0).map((l) => [l.label, l.count])),
    ).toEqual(truth.sessionLabels);
    for (const l of r.sessionLabels) expect(l.share).toBeCloseTo(l.count / truth.sessions, 12);
    expect(r.messageLabels).toHaveLength(p.state.messageLabels.size);
    expect(counts(r.messageLabels)).toEqual(e.messageLabels);
    expect(
      Object.fromEntries(r.messageLabels.filter((l) => l.count > 0).map((l) => [l.label, l.count])),
    ).toEqual(truth.messageLabels);
    for (const l of r.messageLabels) {
      const label = p.state.messageLabels.get(l.labelId)!;
      expect(l.group).toBe(p.state.labelGroups.get(label.groupId)!.name);
    }

    expect(r.deliveryFunnel.map((f) => f.channel)).toEqual(['telegram', 'viber', 'vk']);
    for (const f of r.deliveryFunnel) {
      const s = truth.statuses[f.channel] ?? {};
      const n = (status: string) => s[status] ?? 0;
      const withStatus = Object.values(s).reduce((a, b) => a + b, 0);
      expect(f).toMatchObject({
        messages: e.channelMessages.get(f.channel) ?? 0,
        withStatus,
        sent: f.channel === 'viber' ? null : n('SENT'),
        delivered: n('DELIVERED'),
        read: f.channel === 'telegram' ? null : n('READ'),
        notSent: n('NOT_SENT'),
        notDelivered: n('NOT_DELIVERED'),
        unexpected: 0,
      });
      expect(f.deliveredRate).toBeCloseTo((n('DELIVERED') + n('READ')) / withStatus, 12);
      expect(f.notSentRate).toBeCloseTo(n('NOT_SENT') / withStatus, 12);
      if (f.channel !== 'telegram')
        expect(f.readRate).toBeCloseTo(n('READ') / (n('DELIVERED') + n('READ')), 12);
    }
    expect(truth.statuses['telegram']?.['READ']).toBeUndefined();

    const classified = Object.values(truth.nlpClasses).reduce((a, b) => a + b, 0);
    expect(r.intents).toMatchObject({
      catchAllClass: '/CatchAll',
      classified,
      unrecognised: truth.nlpClasses['/CatchAll'],
    });
    expect(r.intents.unrecognisedShare).toBeCloseTo(truth.nlpClasses['/CatchAll']! / classified, 12);
    expect(Object.fromEntries(r.intents.top.map((i) => [i.nlpClass, i.messages]))).toEqual(truth.nlpClasses);
    for (const i of r.intents.top) {
      const x = e.nlp.get(i.nlpClass)!;
      expect(i.meanConfidence).toBeCloseTo(x.confidenceSum / x.messages, 9);
    }
    const sorted = [...r.intents.top].sort((a, b) => b.messages - a.messages);
    expect(r.intents.top.map((i) => i.messages)).toEqual(sorted.map((i) => i.messages));

    const data: Record<string, number> = {};
    for (const key of r.sessionData) {
      expect(key.sessions).toBe(key.values.reduce((a, v) => a + v.sessions, 0));
      expect(key.distinctValues).toBe(key.values.length);
      for (const v of key.values) data[`${key.key}=${v.value}`] = v.sessions;
    }
    expect(data).toEqual(truth.sessionData);

    expect(r.experiments.length).toBeGreaterThanOrEqual(4);
    for (const x of r.experiments) {
      const want = e.experiments.get(`${x.experiment}/${x.branch}`) ?? {
        sessions: 0,
        messages: 0,
        transferred: 0,
      };
      expect(x.sessions).toBe(truth.experiments[x.experiment]?.[x.branch] ?? 0);
      expect(x.sessions).toBe(want.sessions);
      expect(x.transferredSessions).toBe(want.transferred);
      if (want.sessions > 0) expect(x.messagesPerSession).toBeCloseTo(want.messages / want.sessions, 9);
      expect(x.status).toBe(p.state.experiments.get(x.experiment)!.status);
    }
    expect(r.experiments.some((x) => x.sessions > 0)).toBe(true);

    const ranked = [...e.firstQuestions.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    expect(r.firstQuestions.map((q) => [q.question, q.sessions])).toEqual(ranked.slice(0, 100));
  });

  it('Europe/Moscow: local days, hours and ISO weeks, labels by period', async () => {
    const { code, text } = await cli([
      '--json',
      '--tz',
      'Europe/Moscow',
      '--from',
      '2026-10-29',
      '--to',
      '2026-10-31',
    ]);
    expect(code).toBe(0);
    const r = JSON.parse(text) as StatsReport;
    const from = Date.parse('2026-10-28T21:00:00Z');
    const to = Date.parse('2026-10-30T21:00:00Z');
    expect(r.window.from).toBe(iso(from));
    expect(r.window.to).toBe(iso(to));
    expect(r.timeZone).toBe('Europe/Moscow');
    const e = expectedStats(p, { from, to, now, unit: 'day', offset: MSK });
    expect(r.totals.sessions).toBe(h.truth(from, to).sessions);
    expect(r.byPeriod.map((x) => [x.period, x.start])).toEqual([
      ['2026-10-29', '2026-10-28T21:00:00.000Z'],
      ['2026-10-30', '2026-10-29T21:00:00.000Z'],
    ]);
    for (const x of r.byPeriod) {
      const f = e.byPeriod.get(Date.parse(x.start))!;
      expect(x).toMatchObject({
        sessions: f.sessions,
        messages: f.messages,
        uniqueClients: f.clients.size,
        transferredSessions: f.transferred,
      });
    }
    expect(r.byPeriodChannel).toHaveLength(e.byPeriodChannel.size);
    for (const x of r.byPeriodChannel) {
      const f = e.byPeriodChannel.get(`${Date.parse(x.start)}|${x.channel}`)!;
      expect(x).toMatchObject({
        sessions: f.sessions,
        messages: f.messages,
        uniqueClients: f.clients.size,
        transferredSessions: f.transferred,
      });
    }
    const byPeriod = (rows: { start: string; labelId: number; count: number }[]) =>
      new Map(rows.map((x) => [`${Date.parse(x.start)}|${x.labelId}`, x.count]));
    expect(byPeriod(r.sessionLabelsByPeriod)).toEqual(e.sessionLabelsByPeriod);
    expect(byPeriod(r.messageLabelsByPeriod)).toEqual(e.messageLabelsByPeriod);

    const hFrom = Date.parse('2026-10-30T06:00:00Z');
    const hours = await stats({
      from: hFrom,
      to: hFrom + 6 * HOUR,
      period: 'hour',
      timeZone: 'Europe/Moscow',
    });
    const eh = expectedStats(p, { from: hFrom, to: hFrom + 6 * HOUR, now, unit: 'hour', offset: MSK });
    expect(hours.byPeriod.map((x) => x.period)).toEqual([
      '2026-10-30T09:00',
      '2026-10-30T10:00',
      '2026-10-30T11:00',
      '2026-10-30T12:00',
      '2026-10-30T13:00',
      '2026-10-30T14:00',
    ]);
    for (const x of hours.byPeriod)
      expect(x.messages).toBe(eh.byPeriod.get(Date.parse(x.start))?.messages ?? 0);

    const weeks = await stats({ period: 'week', timeZone: 'Europe/Moscow' });
    const ew = expectedStats(p, { from: 0, to: now + 1, now, unit: 'week', offset: MSK });
    expect(weeks.byPeriod.map((x) => [x.period, x.start])).toEqual([
      ['2026-W44', '2026-10-25T21:00:00.000Z'],
    ]);
    expect(weeks.byPeriod[0]).toMatchObject({
      sessions: ew.sessions,
      messages: ew.messages,
      uniqueClients: ew.clients.size,
    });
    expect(weeks.window.requestedFrom).toBeNull();
  });

  it('a channel filter (any case, repeated or comma-separated) restricts every section', async () => {
    const from = Date.parse('2026-10-30T00:00:00Z');
    const to = from + DAY;
    const { code, text } = await cli([
      '--json',
      '--channel',
      'TELEGRAM',
      '--channel',
      'vk,Vk',
      '--from',
      iso(from),
      '--to',
      iso(to),
    ]);
    expect(code).toBe(0);
    const r = JSON.parse(text) as StatsReport;
    const e = expectedStats(p, { from, to, now, unit: 'day', offset: 0, channels: ['telegram', 'vk'] });
    expect(r.filters.channels).toEqual(['telegram', 'vk']);
    expect(r.totals).toMatchObject({
      sessions: e.sessions,
      messages: e.messages,
      uniqueClients: e.clients.size,
      transferredSessions: e.transferred,
    });
    expect(r.byChannel.map((c) => c.channel)).toEqual(['telegram', 'vk']);
    expect(r.deliveryFunnel.map((f) => f.channel)).toEqual(['telegram', 'vk']);
    expect(counts(r.sessionLabels)).toEqual(e.sessionLabels);
    expect(counts(r.messageLabels)).toEqual(e.messageLabels);
    expect(Object.fromEntries(r.intents.top.map((i) => [i.nlpClass, i.messages]))).toEqual(
      Object.fromEntries([...e.nlp].map(([k, v]) => [k, v.messages])),
    );
  });

  it('an empty window is a clear empty result, in JSON and as text', async () => {
    const from = Date.parse('2026-10-01T00:00:00Z');
    const r = await stats({ from, to: from + DAY });
    expect(r.empty).toBe(true);
    expect(r.totals).toMatchObject({ sessions: 0, messages: 0, uniqueClients: 0, transferShare: null });
    expect(r.totals.messagesPerSession).toBeNull();
    expect(r.byPeriod).toEqual([
      {
        period: '2026-10-01',
        start: iso(from),
        sessions: 0,
        messages: 0,
        uniqueClients: 0,
        transferredSessions: 0,
      },
    ]);
    expect(r.byChannel).toEqual([]);
    expect(r.deliveryFunnel.every((f) => f.messages === 0 && f.deliveredRate === null)).toBe(true);
    expect(r.firstQuestions).toEqual([]);
    const { code, text } = await cli(['--from', '2026-10-01', '--to', '2026-10-02']);
    expect(code).toBe(0);
    expect(text).toMatch(/No sessions and no messages in this window/);
  });

  it('a long window: the text takes a coarser period and says so, folds empty periods; --period and --json are obeyed', async () => {
    const args = ['--from', '1976-11-01', '--to', '2026-11-01'];
    const { code, text } = await cli(args);
    expect(code).toBe(0);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^By month, not by day: .*18,262 days.*--period day/);
    expect(text).toContain('By month (UTC');
    expect(lines.length).toBeLessThan(150);
    // the month rows and the folded empty ones hold every session of the window
    const truth = (
      await stats({
        from: Date.parse('1976-11-01T00:00:00Z'),
        to: Date.parse('2026-11-01T00:00:00Z'),
        period: 'month',
      })
    ).totals.sessions;
    const section = lines.slice(lines.findIndex((l) => l.startsWith('By month (')) + 3);
    const rows = section.slice(0, section.indexOf(''));
    expect(rows.length).toBeLessThan(20);
    expect(rows[0]).toMatch(/^1976-11 – \d{4}-\d\d \([\d,]+ months empty\) +0 +0 +0 +0$/);
    const sum = rows.reduce(
      (n, r) =>
        n +
        Number(
          r
            .trim()
            .split(/\s{2,}/)[1]!
            .replace(/,/g, ''),
        ),
      0,
    );
    expect(sum).toBe(truth);
    // --period given is obeyed (empty days folded), and --json is the report by day as before
    const byDay = await cli([...args, '--period', 'day']);
    expect(byDay.text).toContain('By day (UTC');
    expect(byDay.text).not.toMatch(/not by day/);
    expect(byDay.text.split('\n').length).toBeLessThan(200);
    const json = JSON.parse((await cli([...args, '--json'])).text) as StatsReport;
    expect(json.period).toBe('day');
    expect(json.byPeriod).toHaveLength(18_262);
  }, 240_000);

  it('prints readable tables by default and the documented keys with --json', async () => {
    const { code, text } = await cli(['--from', '2026-10-30T00:00:00Z', '--to', '2026-10-31T00:00:00Z']);
    expect(code).toBe(0);
    for (const heading of [
      'Totals',
      'By channel',
      'By day',
      'Session labels',
      'Message labels',
      'Delivery funnel',
      'Intents',
      'sessionData',
      'Experiments',
      'Top first questions',
    ])
      expect(text).toContain(heading);
    expect(text).toMatch(/^telegram +[\d,]+ /m);
    const json = JSON.parse((await cli(['--json'])).text);
    expect(Object.keys(json.totals)).toEqual(
      expect.arrayContaining([
        'sessions',
        'nonEmptySessions',
        'messages',
        'uniqueClients',
        'transferredSessions',
      ]),
    );
    expect(Object.keys(json.byChannel[0])).toEqual(
      expect.arrayContaining(['channel', 'sessions', 'messages']),
    );
    expect(Object.keys(json.deliveryFunnel[0])).toEqual(
      expect.arrayContaining(['channel', 'sent', 'delivered', 'read', 'notSent', 'notDelivered']),
    );
    expect(Object.keys(json.sessionLabels[0])).toEqual(expect.arrayContaining(['label', 'count']));
    expect(Object.keys(json.messageLabels[0])).toEqual(expect.arrayContaining(['label', 'count']));
    expect(json.window.from).toBe(iso(p.skeleton.start.get(0)));
  });

  it('takes a relative period in --tz: --last 2d, --from yesterday --to today', async () => {
    const last = JSON.parse((await cli(['--last', '2d', '--json'])).text);
    expect([last.window.requestedFrom, last.window.requestedTo]).toEqual([iso(now - 2 * DAY), iso(now)]);
    const day = JSON.parse(
      (await cli(['--from', 'yesterday', '--to', 'today', '--tz', 'Europe/Moscow', '--json'])).text,
    );
    // Moscow's today began at the last 21:00 UTC at or before now
    const todayStart = Math.floor((now + MSK) / DAY) * DAY - MSK;
    expect([day.window.requestedFrom, day.window.requestedTo]).toEqual([
      iso(todayStart - DAY),
      iso(todayStart),
    ]);
    const expected = expectedStats(p, {
      from: todayStart - DAY,
      to: todayStart,
      now,
      unit: 'day',
      offset: MSK,
    });
    expect(day.totals.sessions).toBe(expected.sessions);
  });

  it('refuses bad input with a UsageError naming the option (exit 2)', async () => {
    const cases: [string[], RegExp][] = [
      [['--tz', 'Mars/Olympus'], /--tz/],
      [['--from', '2026-10-31', '--to', '2026-10-30'], /--from .* must be before --to/],
      [['--from', '2026-10-30T00:00:00Z', '--to', '2026-10-30T00:00:00Z'], /--from .* must be before --to/],
      // one day given as from = to: the message says which --to takes that day
      [['--from', '2026-10-30', '--to', '2026-10-30'], /for the whole day 2026-10-30, give --to 2026-10-31$/],
      [['--from', 'yesterdy'], /--from expects/],
      [['--from', 'today', '--to', 'yesterday'], /wrong way round, give --from yesterday --to today$/],
      [['--last', '7'], /--last expects a count and a unit/],
      [['--week', 'last', '--from', '2026-10-30'], /give one way of saying the period/],
      [['--to', '2026-02-30'], /--to expects/],
      // impossible dates are refused in every form, never rolled over to the next month or day
      [
        ['--from', '2026-11-31T00:00:00Z'],
        /--from expects .*"2026-11-31T00:00:00Z" \(no such date or time\)/,
      ],
      [['--to', '2026-02-29T00:00+03:00'], /--to expects .*no such date or time/],
      [['--from', '2026-11-20T25:00'], /--from expects/],
      [['--channel', 'telegramm'], /--channel: unknown channel "telegramm"/],
      [['--project', 'nope'], /--project: the warehouse holds no data of project "nope"/],
      [['--period', 'year'], /--period expects one of hour, day, week, month/],
      [['--top', '0'], /--top/],
      [['--tolerance', '1'], /--tolerance applies to --reconcile/],
    ];
    for (const [args, message] of cases) {
      const error = await cli(args).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, args.join(' ')).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toMatch(message);
      expect((error as UsageError).exitCode).toBe(2);
    }
  });
});

describe('parseZonedTime', () => {
  it('reads instants with offsets as given and local dates in the zone', () => {
    expect(parseZonedTime('2026-11-20T00:00:00Z', 'from', 'Europe/Moscow')).toBe(
      Date.parse('2026-11-20T00:00:00Z'),
    );
    expect(parseZonedTime('2026-11-20T00:00+03:00', 'from', 'UTC')).toBe(Date.parse('2026-11-19T21:00:00Z'));
    expect(parseZonedTime('2026-11-20', 'from', 'Europe/Moscow')).toBe(Date.parse('2026-11-19T21:00:00Z'));
    expect(parseZonedTime('2026-11-20T09:30', 'to', 'UTC')).toBe(Date.parse('2026-11-20T09:30:00Z'));
    // a daylight-saving zone on both sides of its change
    expect(parseZonedTime('2026-03-28', 'from', 'Europe/Berlin')).toBe(Date.parse('2026-03-27T23:00:00Z'));
    expect(parseZonedTime('2026-03-30', 'from', 'Europe/Berlin')).toBe(Date.parse('2026-03-29T22:00:00Z'));
    expect(() => parseZonedTime('2026-13-01', 'to', 'UTC')).toThrow(/--to expects/);
  });
});

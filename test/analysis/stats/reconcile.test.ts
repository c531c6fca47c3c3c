// stats --reconcile against the emulator after a complete sync: every difference is zero (UTC day,
// Moscow days, the default window, a channel filter); a warehouse that lost a session differs and exits 1
// unless --tolerance admits it. Local figures are also checked against the emulator's own counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReconcileReport, ReconcileRow } from '../../../src/analysis/stats/reconcile-stats.js';
import { runStats } from '../../../src/cli/commands/stats.js';
import type { ProjectData } from '../../../src/emulator/project-data.js';
import { silentLogger } from '../../../src/log.js';
import { describeRollupRebuild } from '../../../src/warehouse/rebuild-rollups.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';

const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString();

let h: Harness;
let p: ProjectData;
let now: number;

beforeAll(async () => {
  // no safety lag: the all-time figures (unique clients, experiment joins) then cover the clock too
  h = await createHarness({ emulator: { sessions: 900 }, env: { REPORTER_SAFETY_LAG_MINUTES: '0' } });
  expect((await h.sync()).status).toBe('success');
  p = h.running.emulator.project('shop-bot');
  now = h.running.emulator.now();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

async function reconcile(args: string[]) {
  const out: string[] = [];
  const code = await runStats(
    ['--reconcile', ...args],
    { out: (l) => out.push(l), err: () => {}, isTty: false },
    {
      env: h.env,
      now: () => now,
      log: silentLogger(),
      http: { backoffBaseMs: 5, backoffCapMs: 50 },
    },
  );
  const text = out.join('\n');
  return { code, text, report: args.includes('--json') ? (JSON.parse(text) as ReconcileReport) : undefined };
}

const find = (rows: ReconcileRow[], figure: string, subject: string | null = null) =>
  rows.find((r) => r.figure === figure && r.subject === subject);

function expectAllAgree(report: ReconcileReport) {
  expect(report.ok).toBe(true);
  const rows = report.projects[0]!.rows;
  for (const r of rows.filter((x) => x.platform !== null)) {
    expect(r.difference, `${r.figure} ${r.subject}`).toBe(0);
    expect(r.withinTolerance).toBe(true);
  }
  return rows;
}

/** Clients whose first session started by the clock, and joins per experiment, straight from the emulator. */
function allTime() {
  const sk = p.skeleton;
  let clients = 0;
  for (let c = 0; c < sk.clientCreator.length; c++)
    if (sk.start.get(sk.clientCreator.get(c)) <= now) clients++;
  return { clients, experiments: h.truth(0, now + 1).experiments };
}

describe('stats --reconcile', () => {
  it('after a complete sync every figure agrees with the platform’s (one UTC day)', async () => {
    const from = Date.parse('2026-10-30T00:00:00Z');
    const { code, report } = await reconcile(['--json', '--from', iso(from), '--to', iso(from + DAY)]);
    expect(code).toBe(0);
    const rows = expectAllAgree(report!);
    expect(report!.projects[0]!.window).toEqual({ from: iso(from), to: iso(from + DAY) });
    expect(new Set(rows.map((r) => r.endpoint))).toEqual(
      new Set([
        'stats/sessions/with-advanced-filters',
        'stats/messages/with-advanced-filters',
        'stats/switched-sessions',
        'stats/unique-clients',
        'stats/session-labels',
        'stats/log-labels',
        'scenario-exeperiments/count-sessions',
      ]),
    );
    expect(rows.every((r) => r.platform !== null)).toBe(true);
    const truth = h.truth(from, from + DAY);
    expect(find(rows, 'sessions')!.local).toBe(truth.sessions);
    expect(find(rows, 'messages')!.local).toBe(truth.messages);
    expect(find(rows, 'nonEmptySessions')!.local).toBe(truth.nonEmptySessions);
    expect(find(rows, 'transferredSessions')!.local).toBe(truth.transferredSessions);
    expect(find(rows, 'transferredSessions', 'by day')!.local).toBe(truth.transferredSessions);
    for (const [channel, c] of Object.entries(truth.byChannel)) {
      expect(find(rows, 'sessions', channel)!.local).toBe(c.sessions);
      expect(find(rows, 'messages', channel)!.local).toBe(c.messages);
    }
    const labels = rows.filter((r) => r.figure === 'sessionLabel' && r.local > 0);
    expect(Object.fromEntries(labels.map((r) => [r.subject!.replace(/ #\d+$/, ''), r.local]))).toEqual(
      truth.sessionLabels,
    );
    const { clients, experiments } = allTime();
    expect(find(rows, 'uniqueClients')).toMatchObject({ local: clients, scope: 'all time' });
    for (const [key, branches] of Object.entries(experiments)) {
      for (const [branch, n] of Object.entries(branches))
        expect(find(rows, 'experimentSessions', `${key} / ${branch}`)!.local).toBe(n);
    }
  });

  it('agrees on Moscow days and on the default window (first synced record to the watermark)', async () => {
    const moscow = await reconcile([
      '--json',
      '--tz',
      'Europe/Moscow',
      '--from',
      '2026-10-29',
      '--to',
      '2026-10-31',
    ]);
    expect(moscow.code).toBe(0);
    const rows = expectAllAgree(moscow.report!);
    expect(moscow.report!.projects[0]!.window.from).toBe('2026-10-28T21:00:00.000Z');
    expect(find(rows, 'transferredSessions', 'by day')!.note).toMatch(/UTC day 2026-10-29$/);
    expect(find(rows, 'sessions')!.local).toBe(
      h.truth(Date.parse('2026-10-28T21:00:00Z'), Date.parse('2026-10-30T21:00:00Z')).sessions,
    );

    const whole = await reconcile(['--json']);
    expect(whole.code).toBe(0);
    expectAllAgree(whole.report!);
    const watermark = await h.withWarehouse((w) => w.getWatermark('shop-bot'));
    expect(whole.report!.projects[0]!.window).toEqual({
      from: iso(p.skeleton.start.get(0)),
      to: iso(watermark!),
    });
    expect(find(whole.report!.projects[0]!.rows, 'sessions')!.local).toBe(h.truth(0, watermark!).sessions);
  });

  it('with a channel filter compares the filtered figures and skips what the platform cannot filter', async () => {
    const from = Date.parse('2026-10-30T00:00:00Z');
    const { code, report, text } = await reconcile([
      '--channel',
      'viber,VK',
      '--from',
      iso(from),
      '--to',
      iso(from + DAY),
      '--json',
    ]);
    expect(code, text).toBe(0);
    const rows = expectAllAgree(report!);
    expect(report!.filters.channels).toEqual(['viber', 'vk']);
    const truth = h.truth(from, from + DAY);
    const sessions = truth.byChannel['viber']!.sessions + truth.byChannel['vk']!.sessions;
    expect(find(rows, 'sessions')!.local).toBe(sessions);
    expect(rows.filter((r) => r.figure === 'sessions' && r.subject !== null).map((r) => r.subject)).toEqual([
      'viber',
      'vk',
    ]);
    expect(find(rows, 'transferredSessions', 'by day')).toMatchObject({
      platform: null,
      withinTolerance: null,
      note: 'stats/switched-sessions cannot filter by channel',
    });
  });

  it('exits 1 when the warehouse lost a session, unless --tolerance admits the difference', async () => {
    const from = Date.parse('2026-10-30T00:00:00Z');
    const window = ['--from', iso(from), '--to', iso(from + DAY)];
    const victim = await h.withWarehouse(async (w) => {
      const rows = await w.query(
        `SELECT session_id FROM sessions s WHERE start_time >= $1 AND start_time < $2 AND channel_type = 'telegram'
           AND question_count = 0 AND NOT EXISTS (SELECT 1 FROM session_labels l WHERE l.session_id = s.session_id)
         ORDER BY session_id LIMIT 1`,
        [new Date(from), new Date(from + DAY)],
      );
      const id = rows[0]!['session_id'] as string;
      await w.query('DELETE FROM sessions WHERE session_id = $1', [id]);
      // rows changed outside a sync: the statistics' rollups are rebuilt (reporter-etl rollups rebuild)
      await w.commitBatch(describeRollupRebuild(new Date(now)));
      return id;
    });
    expect(p.sessionIndex(victim)).toBeDefined();

    const strict = await reconcile(['--json', ...window]);
    expect(strict.code).toBe(1);
    expect(strict.report!.ok).toBe(false);
    const rows = strict.report!.projects[0]!.rows;
    expect(find(rows, 'sessions')).toMatchObject({ difference: -1, withinTolerance: false });
    expect(find(rows, 'sessions', 'telegram')).toMatchObject({ difference: -1, withinTolerance: false });
    expect(find(rows, 'messages')).toMatchObject({ difference: 0, withinTolerance: true });
    const text = await reconcile(window);
    expect(text.code).toBe(1);
    expect(text.text).toMatch(/^sessions +\S* *[\d,]+ +[\d,]+ +-1 +DIFFERS/m);
    expect(text.text).toMatch(/figures differ beyond the tolerance/);

    expect((await reconcile(['--tolerance', '1', ...window])).code).toBe(0);
    expect((await reconcile(['--tolerance', '1%', ...window])).code).toBe(0);
    expect((await reconcile(['--tolerance', '0.1%', ...window])).code).toBe(1);
  });
});

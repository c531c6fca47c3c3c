// An incremental run reads its look-back by its changes (REPORTER_LOOKBACK_READ=changes, the default):
// labelled and commented records, sessions with new messages, messages whose status can still move. Each
// case ends with the warehouse equal to the emulator's ground truth (labels, statuses, sessionData, and every
// comment, read from the emulator's own data), including changes a changes-only read could miss: labels and
// comments removed, and records the warehouse lacks (the window is then read whole).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../../src/emulator/emulator.js';
import {
  createHarness,
  expectWarehouseEqualsTruth,
  type Harness,
  syncedDataDir,
} from '../../helpers/sync-harness.js';

const HOUR = 3_600_000;
const LAG = 5 * 60_000;
let h: Harness | undefined;
let twin: Harness | undefined;
/**
 * 500 sessions over the harness's 3 days, not its 1,200: every property here (exact after the look-back, fewer
 * records than a whole re-read, only the moved statuses written again) holds at any size, and the sessions
 * of a window still reach the statuses report's 8 clients.
 */
const SMALL = { sessions: 500 };
/** The first (full) sync every case starts from, run once for the file: each case gets a copy of its warehouse. */
let firstSync: Awaited<ReturnType<typeof syncedDataDir>>;
beforeAll(async () => {
  firstSync = await syncedDataDir({ emulator: SMALL });
}, 60_000);
afterAll(() => firstSync?.remove());

/**
 * A harness after its first (full) sync: a copy of the file's one, or its own sync where `env` changes how
 * that sync reads (REPORTER_LOOKBACK_READ does not: a full sync has no look-back).
 */
async function afterFirstSync(env: Record<string, string> = {}): Promise<Harness> {
  const { REPORTER_LOOKBACK_READ: _lookback, ...changing } = env;
  if (Object.keys(changing).length === 0) return createHarness({ emulator: SMALL, env, from: firstSync.dir });
  const harness = await createHarness({ emulator: SMALL, env });
  expect((await harness.sync()).error).toBeNull();
  return harness;
}

afterEach(async () => {
  await h?.close();
  await twin?.close();
  h = undefined;
  twin = undefined;
});

const FIGURES = [
  'sessionIds',
  'messageIds',
  'sessionLabels',
  'messageLabels',
  'statuses',
  'sessionData',
] as const;

/** The emulator's comment of every visible message with a comment, by question id. */
function emulatorComments(harness: Harness): Map<string, string> {
  const p = harness.running.emulator.project('shop-bot');
  const now = harness.running.emulator.now();
  const out = new Map<string, string>();
  for (let i = 0; i < p.skeleton.sessionCount; i++) {
    const visible = p.skeleton.visibleMessageCount(i, now);
    for (let k = 0; k < visible; k++) {
      const comment = p.commentAt(i, k, now);
      if (comment !== undefined) out.set(p.questionId(i, k), comment);
    }
  }
  return out;
}

async function expectExact(harness: Harness): Promise<void> {
  const now = harness.running.emulator.now();
  await expectWarehouseEqualsTruth(harness, now - LAG - 4 * 24 * HOUR, now - LAG, FIGURES);
  const stored = await harness.withWarehouse((w) =>
    w.query('select question_id, comment from messages where comment is not null'),
  );
  const truth = emulatorComments(harness);
  const cutoff = now - LAG;
  // the synced range only: the emulator's comments of messages newer than the safety lag are not synced yet
  const p = harness.running.emulator.project('shop-bot');
  const expected = new Map(
    [...truth].filter(([id]) => {
      const at = p.messageIndex(id)!;
      return p.skeleton.messageTime(at.i, at.k) < cutoff;
    }),
  );
  expect(new Map(stored.map((r) => [String(r['question_id']), String(r['comment'])]))).toEqual(expected);
}

/**
 * As if the first run had seen some messages before they were read: five READ ones of viber and vk set back to
 * DELIVERED in the warehouse (their status moved on the platform), and five DELIVERED ones that did not move.
 */
async function markStatusesUnread(harness: Harness) {
  const now = harness.running.emulator.now();
  const range = { from: new Date(now - 30 * HOUR), to: new Date(now - 10 * HOUR) };
  const moved = await harness.withWarehouse((w) =>
    w.query(
      `select question_id from messages where status = 'READ' and channel_type in ('viber', 'vk')
         and comment is null and "timestamp" between $from and $to order by 1 limit 5`,
      range,
    ),
  );
  // DELIVERED on viber and vk can still move: their sessions are asked about, these rows have not changed
  const unmoved = await harness.withWarehouse((w) =>
    w.query(
      `select question_id, synced_at from messages where status = 'DELIVERED' and channel_type in ('viber', 'vk')
         and comment is null and "timestamp" between $from and $to order by 1 limit 5`,
      range,
    ),
  );
  expect(moved).toHaveLength(5);
  expect(unmoved).toHaveLength(5);
  const movedIds = moved.map((r) => String(r['question_id']));
  await harness.withWarehouse((w) =>
    w.query(`update messages set status = 'DELIVERED' where question_id in (select unnest($ids))`, {
      ids: movedIds,
    }),
  );
  return { movedIds, unmoved };
}

const messagesFilterRecords = (log: RecordedRequest[]) =>
  log.filter((r) => r.url.includes('/messages/filter')).length;

describe('the look-back read by its changes', () => {
  it('brings every change of six hours with fewer records than a whole re-read, exactly', async () => {
    h = await afterFirstSync();
    twin = await afterFirstSync({ REPORTER_LOOKBACK_READ: 'whole' });
    for (const harness of [h, twin]) harness.running.emulator.clock.advance(6 * HOUR);
    const log: RecordedRequest[] = [];
    h.running.emulator.requestLog = log;
    const changes = await h.sync();
    const whole = await twin.sync();
    expect(changes.error).toBeNull();
    expect(whole.error).toBeNull();
    await expectExact(h);
    await expectExact(twin);
    // the same data (same seed and clock): the changes-only read commits far fewer rows
    expect(changes.messages).toBeLessThan(whole.messages * 0.6);
    expect(changes.sessions).toBeLessThan(whole.sessions * 0.6);
    expect(messagesFilterRecords(log)).toBeGreaterThan(0);
  });

  it('writes nothing again when nothing changed, and what changed on records already annotated', async () => {
    h = await afterFirstSync();
    // nothing changed (the clock stands): the look-back is checked, nothing is written
    const quiet = await h.sync();
    expect(quiet.error).toBeNull();
    expect({ sessions: quiet.sessions, messages: quiet.messages }).toEqual({ sessions: 0, messages: 0 });
    const now = h.running.emulator.now();
    const p = h.running.emulator.project('shop-bot');
    const range = { from: new Date(now - 30 * HOUR), to: new Date(now - 20 * HOUR) };
    const first = (sql: string) =>
      h!
        .withWarehouse((w) => w.query(sql, range))
        .then((rows) => String(rows[0]![Object.keys(rows[0]!)[0]!]));
    // a labelled session and a labelled message get one more label, a commented message another comment
    const session = await first(
      `select s.session_id from sessions s join session_labels l using (project, session_id)
       where s.start_time between $from and $to order by 1 limit 1`,
    );
    const message = await first(
      `select question_id from message_labels where "timestamp" between $from and $to order by 1 limit 1`,
    );
    const commented = await first(
      `select question_id from messages where comment is not null and "timestamp" between $from and $to order by 1 limit 1`,
    );
    const sessionAt = p.sessionIndex(session)!;
    const sessionLabels = new Set(p.sessionLabelIds(sessionAt, now));
    const allSessionLabels = [...p.state.sessionLabels.keys()];
    const extraSessionLabel = allSessionLabels.find((id) => !sessionLabels.has(id));
    expect(extraSessionLabel).toBeDefined();
    p.state.sessionLabelSets.set(sessionAt, new Set([...sessionLabels, extraSessionLabel!]));
    const messageAt = p.messageIndex(message)!;
    const offset = p.skeleton.msgOffset.get(messageAt.i) + messageAt.k;
    const messageLabels = new Set(p.messageLabelIds(messageAt.i, messageAt.k, now));
    const allMessageLabels = [...p.state.messageLabels.keys()];
    const extraMessageLabel = allMessageLabels.find((id) => !messageLabels.has(id));
    expect(extraMessageLabel).toBeDefined();
    p.state.messageLabelSets.set(offset, new Set([...messageLabels, extraMessageLabel!]));
    const commentedAt = p.messageIndex(commented)!;
    p.state.comments.set(p.skeleton.msgOffset.get(commentedAt.i) + commentedAt.k, 'the comment, edited');

    const changed = await h.sync();
    expect(changed.error).toBeNull();
    await expectExact(h);
    // the changed records, and none of the others
    expect(changed.sessions).toBe(1);
    expect(changed.messages).toBe(commented === message ? 1 : 2);
  });

  it('removes labels and comments that people removed in the look-back, and adds new ones', async () => {
    h = await afterFirstSync();
    const now = h.running.emulator.now();
    const p = h.running.emulator.project('shop-bot');
    // within the look-back (24 hours back), long before the watermark
    const [labelledSession] = await h.withWarehouse((w) =>
      w.query(
        `select distinct s.session_id from sessions s join session_labels l using (project, session_id)
         where s.start_time between $from and $to order by 1 limit 1`,
        { from: new Date(now - 30 * HOUR), to: new Date(now - 20 * HOUR) },
      ),
    );
    const [labelledMessage] = await h.withWarehouse((w) =>
      w.query(
        `select question_id from message_labels where "timestamp" between $from and $to order by 1 limit 1`,
        { from: new Date(now - 30 * HOUR), to: new Date(now - 20 * HOUR) },
      ),
    );
    const [commented, plain] = await h.withWarehouse(async (w) => [
      ...(await w.query(
        `select question_id from messages where comment is not null and "timestamp" between $from and $to order by 1 limit 1`,
        { from: new Date(now - 30 * HOUR), to: new Date(now - 20 * HOUR) },
      )),
      ...(await w.query(
        `select question_id from messages where comment is null and "timestamp" between $from and $to order by 1 limit 1`,
        { from: new Date(now - 30 * HOUR), to: new Date(now - 20 * HOUR) },
      )),
    ]);
    expect(labelledSession && labelledMessage && commented && plain).toBeTruthy();
    const sessionIndex = p.sessionIndex(String(labelledSession!['session_id']))!;
    p.state.sessionLabelSets.set(sessionIndex, new Set());
    const labelledAt = p.messageIndex(String(labelledMessage!['question_id']))!;
    p.state.messageLabelSets.set(p.skeleton.msgOffset.get(labelledAt.i) + labelledAt.k, new Set());
    const commentedAt = p.messageIndex(String(commented!['question_id']))!;
    p.state.comments.set(p.skeleton.msgOffset.get(commentedAt.i) + commentedAt.k, null);
    const plainAt = p.messageIndex(String(plain!['question_id']))!;
    p.state.comments.set(p.skeleton.msgOffset.get(plainAt.i) + plainAt.k, 'a comment added later');

    h.running.emulator.clock.advance(HOUR);
    expect((await h.sync()).error).toBeNull();
    await expectExact(h);
    const after = await h.withWarehouse((w) =>
      w.query(
        `select
           (select count(*) from session_labels where session_id = $session) as session_labels,
           (select count(*) from message_labels where question_id = $labelled) as message_labels,
           (select comment from messages where question_id = $commented) as removed_comment,
           (select comment from messages where question_id = $plain) as added_comment`,
        {
          session: String(labelledSession!['session_id']),
          labelled: String(labelledMessage!['question_id']),
          commented: String(commented!['question_id']),
          plain: String(plain!['question_id']),
        },
      ),
    );
    expect(after[0]).toEqual({
      session_labels: 0,
      message_labels: 0,
      removed_comment: null,
      added_comment: 'a comment added later',
    });
  });

  // the look-back's statuses: from one messages report of the window (the default), per client
  // (REPORTER_STATUS_READ=by-client), and per client again when the window's report fails
  const STATUS_READS: { how: string; env: Record<string, string>; fail: boolean }[] = [
    { how: 'from the window’s report', env: {}, fail: false },
    { how: 'per client', env: { REPORTER_STATUS_READ: 'by-client' }, fail: false },
    { how: 'per client when the report fails', env: {}, fail: true },
  ];
  for (const { how, env, fail } of STATUS_READS)
    it(`writes again the look-back messages whose status moved, and only those (${how})`, async () => {
      h = await afterFirstSync(env);
      const { movedIds, unmoved } = await markStatusesUnread(h);
      const watermark = h.running.emulator.now() - LAG;
      h.running.emulator.clock.advance(HOUR);
      const log: RecordedRequest[] = [];
      h.running.emulator.requestLog = log;
      if (fail) h.running.emulator.faults.script({ type: 'reportFail', path: 'reports/messages', times: 1 });
      const run = await h.sync();
      expect(run.error).toBeNull();
      if (fail) h.running.emulator.faults.assertAllFired();
      await expectExact(h);
      const after = await h.withWarehouse((w) =>
        w.query(
          `select question_id, status, synced_at from messages
           where question_id in (select unnest($ids)) order by question_id`,
          { ids: [...movedIds, ...unmoved.map((r) => String(r['question_id']))] },
        ),
      );
      const byId = new Map(after.map((r) => [String(r['question_id']), r]));
      for (const id of movedIds) expect(byId.get(id)?.['status'], id).toBe('READ');
      // the rows that did not change are the first run's, not written again
      for (const r of unmoved)
        expect(byId.get(String(r['question_id']))?.['synced_at'], String(r['question_id'])).toEqual(
          r['synced_at'],
        );
      const reports = log.filter((r) => r.url.includes('/reports/messages') && r.method === 'POST').length;
      // by-client reads of the look-back (before the first run's end); the new hour after it has its own
      const lookbackByClient = log.filter((r) => {
        const url = new URL(r.url, 'http://emulator');
        const start = url.searchParams.get('startTime');
        return (
          url.pathname.endsWith('/messages/by-client') && start !== null && Date.parse(start) < watermark
        );
      }).length;
      if (how === 'per client') expect(reports).toBe(0);
      else expect(reports).toBeGreaterThanOrEqual(1);
      // one read per client with a status that can still move, unless the report brought the statuses
      if (how === 'from the window’s report') expect(lookbackByClient).toBe(0);
      else expect(lookbackByClient).toBeGreaterThan(10);
    });

  it('reads a look-back window whole when the warehouse lacks records of it', async () => {
    h = await afterFirstSync();
    const now = h.running.emulator.now();
    const range = { from: new Date(now - 30 * HOUR), to: new Date(now - 20 * HOUR) };
    // as if a run had missed them (a late arrival): the look-back's counts differ from the platform's
    const [lost] = await h.withWarehouse((w) =>
      w.query(
        `select (select count(*) from sessions where start_time between $from and $to) as sessions,
                (select count(*) from messages where "timestamp" between $from and $to) as messages`,
        range,
      ),
    );
    expect(Number(lost!['messages'])).toBeGreaterThan(0);
    await h.withWarehouse(async (w) => {
      await w.query(
        `delete from messages where question_id in (select question_id from messages where "timestamp" between $from and $to order by 1 limit 3)`,
        range,
      );
      await w.query(
        `delete from sessions where session_id in (select session_id from sessions where start_time between $from and $to order by 1 limit 2)`,
        range,
      );
    });
    h.running.emulator.clock.advance(HOUR);
    expect((await h.sync()).error).toBeNull();
    await expectExact(h);
  });
});

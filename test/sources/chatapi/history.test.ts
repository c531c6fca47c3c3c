// The Chat API history source against the emulator: after the Reporter sync, the history of every client
// of the channel seen in the range, with each message's status, and each client's unread count, equal to the
// emulator's own Chat API truth; a second run later stores the statuses that moved and nothing twice; the
// same under faults; a channel before its project's first sync is skipped with the reason.
import { afterEach, describe, expect, it } from 'vitest';
import { computeStats } from '../../../src/analysis/stats/compute-stats.js';
import { loadConfig } from '../../../src/config.js';
import { defaultChatApiToken } from '../../../src/emulator/chatapi/channels.js';
import { chatChannelTruth } from '../../../src/emulator/chatapi/chat-truth.js';
import { silentLogger } from '../../../src/log.js';
import { syncChatApiHistory } from '../../../src/sources/chatapi/sync-chatapi-history.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';
import { makeChatCaller } from '../../helpers/chatapi-client.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';

const TOKEN = defaultChatApiToken('shop-bot');
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(extraEnv: Record<string, string> = {}): Promise<Harness> {
  h = await createHarness({
    emulator: { sessions: 1500, days: 3 },
    env: {
      REPORTER_CHATAPI_CHANNELS: `site=${TOKEN}`,
      REPORTER_HISTORY_DAYS: '4',
      REPORTER_RETRIES: '8',
      ...extraEnv,
    },
  });
  return h;
}

function syncHistory(harness: Harness) {
  const config = loadConfig(harness.env);
  return harness.withWarehouse((warehouse) =>
    syncChatApiHistory({
      config,
      warehouse,
      log: silentLogger(),
      now: () => harness.running.emulator.now(),
      backoffBaseMs: 5,
    }),
  );
}

/** The stored messages as `client question type time status`, sorted, and the duplicate keys. */
async function storedMessages(w: Warehouse) {
  const rows = await w.query(
    "select client_id, question_id, type, strftime(message_time at time zone 'UTC', '%Y-%m-%dT%H:%M:%S.%gZ') as t, coalesce(status, '-') as status from chatapi_messages where channel = 'site' order by all",
  );
  const [dup] = await w.query(
    'select count(*) - count(distinct (channel, question_id, type)) as d from chatapi_messages',
  );
  return {
    rows: rows.map((r) => `${r['client_id']} ${r['question_id']} ${r['type']} ${r['t']} ${r['status']}`),
    duplicates: dup?.['d'] as number,
  };
}

function truthMessages(
  harness: Harness,
  from: number,
  to: number,
): { rows: string[]; notRead: Map<string, number> } {
  const truth = chatChannelTruth(harness.running.emulator, TOKEN, { from, to });
  const rows: string[] = [];
  const notRead = new Map<string, number>();
  for (const client of truth.clients) {
    notRead.set(client.clientId, client.notRead);
    for (const m of client.messages) {
      const t = Date.parse(m.timestamp);
      if (t >= from && t < to)
        rows.push(`${client.clientId} ${m.questionId} ${m.type} ${m.timestamp} ${m.status ?? '-'}`);
    }
  }
  return { rows: rows.sort(), notRead };
}

async function latestUnread(w: Warehouse): Promise<Map<string, number>> {
  const rows = await w.query(
    "select client_id, arg_max(unread, taken_at) as unread from chatapi_unread_counts where channel = 'site' group by 1",
  );
  return new Map(rows.map((r) => [r['client_id'] as string, r['unread'] as number]));
}

describe('the Chat API history source', () => {
  it('stores the history and unread counts of the channel’s clients, then the statuses that moved', async () => {
    const harness = await start();
    expect((await harness.sync()).status).toBe('success');
    const [first] = await syncHistory(harness);
    expect(first).toMatchObject({ channel: 'site', status: 'success', error: null });
    const from = Date.parse(first!.from!);
    const to = Date.parse(first!.to!);
    const truth = truthMessages(harness, from, to);
    expect(first!.clients).toBe(truth.notRead.size);
    expect(truth.rows.length).toBeGreaterThan(100);
    const stored = await harness.withWarehouse(storedMessages);
    expect(stored.duplicates).toBe(0);
    expect(stored.rows).toEqual(truth.rows);
    expect(await harness.withWarehouse(latestUnread)).toEqual(truth.notRead);

    // stats: the delivery funnel gains the chatapi channel, counted from the truth's bot and agent messages
    const answers = truth.rows.map((row) => row.split(' ')).filter((r) => r[2] !== 'client');
    const n = (status: string) => answers.filter((r) => r[4] === status).length;
    const report = await harness.withWarehouse((w) =>
      computeStats(w, { from, to, timeZone: 'UTC', period: 'day', top: 10, catchAllClass: '/CatchAll' }),
    );
    expect(report.deliveryFunnel.map((f) => f.channel)).toContain('chatapi');
    expect(report.deliveryFunnel.find((f) => f.channel === 'chatapi')).toMatchObject({
      messages: answers.length,
      sent: n('SENT'),
      delivered: n('DELIVERED'),
      read: n('READ'),
      notSent: n('NOT_SENT'),
    });

    // later: statuses moved (the clock's timeline, and a client's app marking the newest bot answer read or
    // not sent through the Chat API); the look-back re-reads them, nothing twice
    const newest = stored.rows
      .filter((row) => row.split(' ')[2] === 'bot')
      .at(-1)!
      .split(' ');
    const target = newest[4] === 'READ' ? 'NOT_SENT' : 'READ';
    const chat = makeChatCaller(harness.running.url, TOKEN);
    const set = await chat(`client/${newest[0]}/message/${newest[1]}/status`, { body: { status: target } });
    expect(set.status).toBe(200);
    harness.running.emulator.clock.advance(3_600_000);
    expect((await harness.sync()).status).toBe('success');
    const [second] = await syncHistory(harness);
    expect(second?.status).toBe('success');
    const again = await harness.withWarehouse(storedMessages);
    expect(again.duplicates).toBe(0);
    // the rows of the second range carry today's statuses
    const from2 = Date.parse(second!.from!);
    const to2 = Date.parse(second!.to!);
    const truth2 = truthMessages(harness, from2, to2);
    const inRange2 = again.rows.filter((row) => {
      const t = Date.parse(row.split(' ')[3]!);
      return t >= from2 && t < to2;
    });
    expect(inRange2).toEqual(truth2.rows);
    // and some of them did move since the first run (the test would pass vacuously otherwise)
    const statusOf = (rows: string[]) =>
      new Map(rows.map((row) => [row.split(' ').slice(1, 3).join(' '), row.split(' ')[4]]));
    const before = statusOf(stored.rows);
    const moved = [...statusOf(again.rows)].filter(
      ([key, status]) => before.has(key) && before.get(key) !== status,
    );
    expect(moved).toContainEqual([`${newest[1]} ${newest[2]}`, target]);
  }, 120_000);

  it('is exact under 5xx and 429 faults on the history and unread calls', async () => {
    const harness = await start();
    expect((await harness.sync()).status).toBe('success');
    const e = harness.running.emulator;
    e.faults.script({ type: 'status500', path: 'chatapi/client', after: 3, times: 3 });
    e.faults.script({ type: 'status429', path: 'chatapi/client', after: 10, times: 2, retryAfter: 1 });
    const [summary] = await syncHistory(harness);
    expect(summary?.status).toBe('success');
    const truth = truthMessages(harness, Date.parse(summary!.from!), Date.parse(summary!.to!));
    expect((await harness.withWarehouse(storedMessages)).rows).toEqual(truth.rows);
  }, 120_000);

  it('skips a channel whose project has no Reporter data yet, and says why', async () => {
    const harness = await start();
    const [summary] = await syncHistory(harness);
    expect(summary).toMatchObject({ channel: 'site', status: 'skipped' });
    expect(summary?.error).toMatch(/no Reporter data yet/);
  }, 60_000);
});

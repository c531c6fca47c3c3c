// chatapi-events against the emulator's Chat API: every event of the channel stored once (compared with the
// emulator's own event list), nothing again on a second run, new events of a live dialogue added, the same
// under 5xx and 429 faults, the server's shared cursor left alone, and a bad token named without the token.
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { defaultChatApiToken } from '../../../src/emulator/chatapi/channels.js';
import { chatEventsTruth } from '../../../src/emulator/chatapi/chat-truth.js';
import { silentLogger } from '../../../src/log.js';
import { readChannelEvents } from '../../../src/sources/chatapi/read-channel-events.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';
import { makeChatCaller } from '../../helpers/chatapi-client.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';

const DAY = 86_400_000;
const TOKEN = defaultChatApiToken('shop-bot');
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(extraEnv: Record<string, string> = {}): Promise<Harness> {
  h = await createHarness({
    emulator: { sessions: 3000, days: 3, chatApiEventsWaitMs: 200 },
    env: { REPORTER_CHATAPI_CHANNELS: `site=${TOKEN}`, REPORTER_HISTORY_DAYS: '4', ...extraEnv },
  });
  return h;
}

function readEvents(harness: Harness, env: Record<string, string> = {}) {
  const config = loadConfig({ ...harness.env, ...env });
  return harness.withWarehouse((warehouse) =>
    readChannelEvents({
      config,
      channels: config.chatApi.channels,
      warehouse,
      runId: 'test-run',
      log: silentLogger(),
      now: () => harness.running.emulator.now(),
      signal: new AbortController().signal,
    }),
  );
}

/** The stored events as `type clientId questionId time`, sorted; and the duplicate keys. */
async function stored(w: Warehouse): Promise<{ rows: string[]; duplicates: number }> {
  const rows = await w.query(
    "select type, client_id, question_id, strftime(event_time at time zone 'UTC', '%Y-%m-%dT%H:%M:%S.%g') as t from chatapi_events where channel = 'site' order by all",
  );
  const [dup] = await w.query(
    'select count(*) - count(distinct (channel, event_key)) as d from chatapi_events',
  );
  return {
    rows: rows.map((r) => `${r['type']} ${r['client_id']} ${r['question_id']} ${r['t']}`),
    duplicates: dup?.['d'] as number,
  };
}

function truthRows(harness: Harness, after: number): string[] {
  return chatEventsTruth(harness.running.emulator, TOKEN, { after })
    .map((e) => `${e.type} ${e.clientId} ${e.questionId} ${e.timestamp.replace('Z', '')}`)
    .sort();
}

describe('chatapi-events', () => {
  it('stores every event of the channel once, and only new ones on the next run', async () => {
    const harness = await start();
    const e = harness.running.emulator;
    const startAt = e.now() - 4 * DAY;
    const truth = truthRows(harness, startAt);
    expect(truth.length).toBeGreaterThan(500); // several answers of 250
    const first = await readEvents(harness);
    expect(first.failures).toEqual([]);
    expect(first.channels[0]?.stored).toBe(truth.length);
    const after = await harness.withWarehouse(stored);
    expect(after.duplicates).toBe(0);
    expect(after.rows).toEqual(truth);

    const again = await readEvents(harness);
    expect(again.channels[0]?.stored).toBe(0);

    // a live dialogue: a question answered now, then an agent's reply a minute later
    const chat = makeChatCaller(harness.running.url, TOKEN);
    expect(
      (await chat('', { body: { clientId: 'live-client-1', query: 'Позовите оператора' } })).status,
    ).toBe(200);
    expect((await chat('', { body: { clientId: 'live-client-1', query: 'Когда доставка?' } })).status).toBe(
      200,
    );
    e.clock.advance(120_000);
    const live = await readEvents(harness);
    const now = truthRows(harness, startAt);
    expect(now.length).toBeGreaterThan(truth.length);
    expect(live.channels[0]?.stored).toBe(now.length - truth.length);
    expect(now.some((row) => row.startsWith('operatorResponse live-client-1'))).toBe(true);
    expect((await harness.withWarehouse(stored)).rows).toEqual(now);
  }, 60_000);

  it('is exact under 5xx and 429 faults, and leaves the server’s shared cursor alone', async () => {
    const harness = await start({ REPORTER_RETRIES: '8' });
    const e = harness.running.emulator;
    const startAt = e.now() - 4 * DAY;
    // the customer's own app reads without ts: its cursor starts now
    const chat = makeChatCaller(harness.running.url, TOKEN);
    e.faults.script({ type: 'status500', path: 'chatapi/events', after: 1, times: 2 });
    e.faults.script({ type: 'status429', path: 'chatapi/events', after: 3, times: 1, retryAfter: 1 });
    const result = await readEvents(harness);
    expect(result.failures).toEqual([]);
    expect((await harness.withWarehouse(stored)).rows).toEqual(truthRows(harness, startAt));
    // a new event after our reads: the app's cursor (no ts) still gets it, we took nothing from it
    await chat('', { body: { clientId: 'live-client-2', query: 'hi' } });
    const app = await chat<{ events: { clientId: string }[] }>('events?all=true');
    expect(app.status).toBe(200);
    expect(app.body.events.some((event) => event.clientId === 'live-client-2')).toBe(true);
  }, 60_000);

  it('names the channel whose token is refused, never the token', async () => {
    const harness = await start({
      REPORTER_CHATAPI_CHANNELS: `site=${TOKEN},old=AbCd1234:${'0'.repeat(40)}`,
    });
    const result = await readEvents(harness);
    expect(result.channels.map((c) => c.channel)).toEqual(['site']);
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]).toMatchObject({ channel: 'old', code: 'chatapi.auth', exitCode: 1 });
    expect(result.failures[0]?.message).toMatch(/channel old/);
    expect(result.failures[0]?.message).not.toContain('0'.repeat(40));
  }, 60_000);
});

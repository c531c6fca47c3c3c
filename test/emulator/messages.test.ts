// messages/filter, by-session, by-client and page-in-* against the emulator's ground truth, and the data
// rules of the reference: statuses only where the channel has them, SENT/READ only on their channels.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { groundTruth } from '../../src/emulator/truth.js';
import { makeCaller, pageAll, range, TEST_NOW } from '../helpers/emulator-client.js';

let running: RunningEmulator;
let call: ReturnType<typeof makeCaller>;
const DAY = 86_400_000;
const from = TEST_NOW - 1.5 * DAY;
const to = TEST_NOW - DAY;

beforeAll(async () => {
  running = await startEmulator({ sessions: 3000, days: 4, now: TEST_NOW });
  call = makeCaller(running.url);
});
afterAll(() => running.close());

const truth = () =>
  groundTruth(running.emulator.project('shop-bot'), { now: running.emulator.now(), from, to });

describe('messages', () => {
  it('messages/filter pages through every message of a window, newest first, without status', async () => {
    const { rows } = await pageAll(call, 'messages/filter', 'messages', {
      filters: [range('MESSAGE_TIME', from, to - 1)],
    });
    const expected = truth();
    expect(rows.length).toBe(expected.messages);
    expect(rows.map((m) => m.questionId).sort()).toEqual(expected.messageIds);
    const times = rows.map((m) => Date.parse(m.timestamp));
    for (let n = 1; n < times.length; n++) expect(times[n - 1]).toBeGreaterThanOrEqual(times[n]!);
    expect(
      rows.every((m) => m.status === undefined && typeof m.channelType === 'string' && m.client?.id),
    ).toBe(true);
  });

  it('by-session returns the statuses, and they obey the channel rules', async () => {
    const { rows: sessions } = await pageAll(call, 'sessions/filter', 'sessions', {
      filters: [
        range('SESSION_START_TIME', from, to - 1),
        { key: 'WITHOUT_EMPTY_SESSIONS', type: 'RADIO', option: 'YES' },
      ],
    });
    const statusCounts: Record<string, Record<string, number>> = {};
    for (const session of sessions.slice(0, 150)) {
      const r = await call(`messages/by-session?sessionId=${session.sessionId}&size=100`);
      expect(r.status).toBe(200);
      expect(r.body.session.sessionId).toBe(session.sessionId);
      expect(r.body.messages).toHaveLength(session.questionCount);
      for (const m of r.body.messages) {
        const channel = session.channelType as string;
        if (m.status !== undefined)
          (statusCounts[channel] ??= {})[m.status] = ((statusCounts[channel] ??= {})[m.status] ?? 0) + 1;
      }
    }
    for (const channel of ['chatwidget', 'chatapi', 'resterisk'])
      expect(statusCounts[channel]).toBeUndefined();
    expect(statusCounts['telegram']?.['READ']).toBeUndefined();
    expect(statusCounts['viber']?.['SENT']).toBeUndefined();
    expect(Object.keys(statusCounts['telegram'] ?? {})).toContain('DELIVERED');
    expect(Object.keys(statusCounts['viber'] ?? {})).toContain('READ');
  });

  it('by-session statuses over a whole window equal the ground truth', async () => {
    const { rows: sessions } = await pageAll(call, 'sessions/filter', 'sessions', {
      filters: [range('MESSAGE_TIME', from, to - 1)],
    });
    const counts: Record<string, Record<string, number>> = {};
    for (const s of sessions.filter((x) => ['telegram', 'viber', 'vk'].includes(x.channelType))) {
      const r = await call(`messages/by-session?sessionId=${s.sessionId}&size=500`);
      for (const m of r.body.messages) {
        const t = Date.parse(m.timestamp);
        if (t < from || t >= to || m.status === undefined) continue;
        const row = (counts[s.channelType] ??= {});
        row[m.status] = (row[m.status] ?? 0) + 1;
      }
    }
    expect(counts).toEqual(truth().statuses);
  });

  it('by-session also answers POST (the seed form), hides empty messages and 404s unknown sessions', async () => {
    const { rows } = await pageAll(call, 'sessions/filter', 'sessions', {
      filters: [range('SESSION_START_TIME', from, to - 1)],
    });
    const session = rows.find((s) => s.questionCount > 3)!;
    const get = await call(`messages/by-session?sessionId=${session.sessionId}`);
    const post = await call('messages/by-session', { body: { sessionId: session.sessionId } });
    expect(post.status).toBe(200);
    expect(post.body.messages).toEqual(get.body.messages);
    const hidden = await call(`messages/by-session?sessionId=${session.sessionId}&hideEmptyMessage=true`);
    expect(hidden.body.messages.every((m: any) => typeof m.question === 'string')).toBe(true);
    const missing = await call('messages/by-session?sessionId=00000000-0000-0000-0000-000000000000');
    expect(missing.status).toBe(404);
    const noId = await call('messages/by-session');
    expect(noId.status).toBe(400);
    expect(noId.body.args.parameter).toBe('sessionId');
  });

  it('page-in-session and by-client find a message', async () => {
    const { rows } = await pageAll(call, 'sessions/filter', 'sessions', {
      filters: [range('SESSION_START_TIME', from, to - 1)],
    });
    const session = rows.find((s) => s.questionCount >= 7)!;
    const msgs = await call(`messages/by-session?sessionId=${session.sessionId}&size=100`);
    const sixth = msgs.body.messages[6];
    const page = await call(
      `messages/page-in-session?sessionId=${session.sessionId}&questionId=${sixth.questionId}&size=3`,
    );
    expect(page.body).toEqual({ pageNumber: 2 });
    const byClient = await call(
      `messages/by-client?botId=${session.botId}&clientId=${encodeURIComponent(session.client.id)}&size=500`,
    );
    expect(byClient.status).toBe(200);
    expect(byClient.body.client.id).toBe(session.client.id);
    expect(byClient.body.messages.map((m: any) => m.questionId)).toEqual(
      expect.arrayContaining(msgs.body.messages.map((m: any) => m.questionId)),
    );
  });

  it('data is realistic: Cyrillic and emoji text, transfers with operator answers, returning clients', async () => {
    const { rows } = await pageAll(call, 'messages/filter', 'messages', {
      filters: [range('MESSAGE_TIME', from, to - 1)],
    });
    expect(rows.some((m) => /[а-яё]/i.test(m.question ?? ''))).toBe(true);
    expect(rows.some((m) => /\p{Extended_Pictographic}/u.test(m.question ?? ''))).toBe(true);
    expect(rows.some((m) => m.responseData?.replies?.some((r: any) => r.type === 'switch'))).toBe(true);
    expect(rows.some((m) => m.isLivechat && m.operatorInfo?.id)).toBe(true);
    expect(rows.some((m) => m.nlpInfo?.nlpClass && typeof m.nlpInfo.confidence === 'number')).toBe(true);
    const perClient = new Map<string, Set<string>>();
    for (const m of rows)
      perClient.set(m.client.id, (perClient.get(m.client.id) ?? new Set()).add(m.sessionId));
    expect([...perClient.values()].some((s) => s.size > 1)).toBe(true);
    const channels = new Set(rows.map((m) => m.channelType));
    expect(channels).toEqual(new Set(['telegram', 'viber', 'vk', 'chatwidget', 'chatapi', 'resterisk']));
  });
});

// Client operations of the emulator: clients/filter against the ground truth, all-for-bot (join date bound,
// project required on v1), and block / unblock showing in later reads of both generations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_READONLY_TOKEN } from '../../src/emulator/emulator.js';
import type { ProjectData } from '../../src/emulator/project-data.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { groundTruth } from '../../src/emulator/truth.js';
import { makeCaller, pageAll, TEST_NOW } from '../helpers/emulator-client.js';
import { loadSpec } from '../helpers/openapi-validator.js';

let running: RunningEmulator;
let call: ReturnType<typeof makeCaller>;
let p: ProjectData;
const spec = loadSpec({ dateTime: 'strict' });
const DAY = 86_400_000;

beforeAll(async () => {
  running = await startEmulator({ port: 0, sessions: 300, days: 2, now: TEST_NOW });
  call = makeCaller(running.url);
  p = running.emulator.project('shop-bot');
});
afterAll(() => running.close());

const byClient = (id: string) => ({
  filters: [
    { key: 'CLIENT_ID_OR_NAME', type: 'TEXT', comparisonType: 'EQUALS', values: [id], isCaseSensitive: true },
  ],
});

async function clientRecord(id: string, generation: 'v1' | 'legacy' = 'v1'): Promise<any> {
  const r = await call('clients/filter', { body: byClient(id), generation });
  expect(r.status).toBe(200);
  const rows = r.body.clients.filter((c: any) => c.id === id);
  expect(rows).toHaveLength(1);
  return rows[0];
}

function expectParameter(r: { status: number; body: any }, status: number, parameter: string): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.args?.parameter).toBe(parameter);
  expect(r.body.message).toContain(parameter);
}

describe('clients/filter', () => {
  it('pages through every client, as many as the ground truth counts', async () => {
    const t = groundTruth(p, { now: TEST_NOW, ids: false });
    const { rows, totals } = await pageAll(call, 'clients/filter', 'clients', {}, 50);
    expect(totals.every((n) => n === t.uniqueClients)).toBe(true);
    expect(rows.length).toBe(t.uniqueClients);
    expect(new Set(rows.map((c) => c.id)).size).toBe(rows.length);
    const page = await call('clients/filter?size=5', { body: {}, generation: 'legacy' });
    expect(spec.validateNamed(page.body, 'ClientsData')).toEqual([]);
    expect(page.body.clients.map((c: any) => c.id)).toEqual(rows.slice(0, 5).map((c) => c.id));
  });

  it('applies the client filters', async () => {
    const { rows } = await pageAll(call, 'clients/filter', 'clients', {
      filters: [{ key: 'CHANNEL_TYPE', type: 'CHECKBOX', options: ['telegram'] }],
    });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((c) => c.channelType === 'telegram')).toBe(true);
    expectParameter(
      await call('clients/filter', { body: { filters: [{ key: 'BOT_ID' }] } }),
      400,
      'filters[0].type',
    );
  });
});

describe('clients/all-for-bot', () => {
  it('answers the clients of the bot who joined by dateTo', async () => {
    const dateTo = TEST_NOW - DAY;
    const iso = new Date(dateTo).toISOString();
    const [chat, voice] = p.botIds;
    const project = '&projectShortName=shop-bot';
    const chatRows = (
      await pageAll(call, 'clients/all-for-bot', 'clients', {}, 50, `&botId=${chat}&dateTo=${iso}${project}`)
    ).rows;
    const voiceRows = (
      await pageAll(call, 'clients/all-for-bot', 'clients', {}, 50, `&botId=${voice}&dateTo=${iso}${project}`)
    ).rows;
    expect(chatRows.length).toBeGreaterThan(0);
    expect(voiceRows.length).toBeGreaterThan(0);
    for (const c of chatRows) {
      expect(c.botId).toBe(chat);
      expect(Date.parse(c.joinDate)).toBeLessThanOrEqual(dateTo);
    }
    expect(voiceRows.every((c) => c.botId === voice && c.channelType === 'resterisk')).toBe(true);
    // every client who had a session by dateTo joined by then, with one bot or the other
    expect(chatRows.length + voiceRows.length).toBe(
      groundTruth(p, { now: TEST_NOW, to: dateTo + 1, ids: false }).uniqueClients,
    );

    const legacy = await call(`clients/all-for-bot?botId=${chat}&dateTo=${iso}&size=500`, {
      method: 'POST',
      generation: 'legacy',
    });
    expect(legacy.status).toBe(200);
    expect(spec.validateNamed(legacy.body, 'ClientsData')).toEqual([]);
    expect(legacy.body.paging.totalCount).toBe(chatRows.length);
  });

  it('names the parameter at fault', async () => {
    const iso = new Date(TEST_NOW).toISOString();
    const chat = p.botIds[0];
    expectParameter(
      await call(`clients/all-for-bot?botId=${chat}&dateTo=${iso}`, { method: 'POST' }),
      400,
      'projectShortName',
    );
    expectParameter(
      await call(`clients/all-for-bot?botId=${chat}&projectShortName=shop-bot`, { method: 'POST' }),
      400,
      'dateTo',
    );
    expectParameter(
      await call(`clients/all-for-bot?botId=${chat}&dateTo=yesterday&projectShortName=shop-bot`, {
        method: 'POST',
      }),
      400,
      'dateTo',
    );
    expectParameter(
      await call(`clients/all-for-bot?dateTo=${iso}&projectShortName=shop-bot`, { method: 'POST' }),
      400,
      'botId',
    );
    expectParameter(
      await call(`clients/all-for-bot?botId=nobody&dateTo=${iso}&projectShortName=shop-bot`, {
        method: 'POST',
      }),
      404,
      'botId',
    );
  });
});

describe('block and unblock', () => {
  it('blocks a client, shows it in clients/filter and messages/by-client, then unblocks', async () => {
    const page = await call('clients/filter?size=3', { body: {} });
    const client = page.body.clients[1];
    expect(client.isBlocked).toBe(false);
    const query = `botId=${encodeURIComponent(client.botId)}&clientId=${encodeURIComponent(client.id)}`;

    const blocked = await call(`clients/block?${query}`, {
      method: 'PUT',
      body: { blockReason: 'Спам 🚫', blockedBy: 4242 },
    });
    expect(blocked.status).toBe(200);
    const record = await clientRecord(client.id, 'legacy');
    expect(record).toMatchObject({
      isBlocked: true,
      blockReason: 'Спам 🚫',
      blockedBy: 4242,
      blockDate: new Date(TEST_NOW).toISOString(),
    });
    expect(spec.validateNamed(record, 'ClientExtendedInfo')).toEqual([]);
    const messages = await call(`messages/by-client?${query}`);
    expect(messages.body.client).toMatchObject({ isBlocked: true, blockedBy: 4242 });

    // blocking again (legacy, no reason) replaces the block
    expect(
      (await call(`clients/block?${query}`, { method: 'PUT', body: { blockedBy: 7 }, generation: 'legacy' }))
        .status,
    ).toBe(200);
    const again = await clientRecord(client.id);
    expect(again).toMatchObject({ isBlocked: true, blockedBy: 7 });
    expect(again.blockReason).toBeUndefined();
    // the other clients are untouched
    const others = (await call('clients/filter?size=3', { body: {} })).body.clients.filter(
      (c: any) => c.id !== client.id,
    );
    expect(others.every((c: any) => c.isBlocked === false)).toBe(true);

    expect((await call(`clients/unblock?${query}`, { method: 'PUT' })).status).toBe(200);
    const unblocked = await clientRecord(client.id);
    expect(unblocked.isBlocked).toBe(false);
    expect(unblocked.blockedBy).toBeUndefined();
    expect(unblocked.blockDate).toBeUndefined();
    // unblocking a client who is not blocked is harmless
    expect((await call(`clients/unblock?${query}`, { method: 'PUT', generation: 'legacy' })).status).toBe(
      200,
    );
  });

  it('refuses a read-only token and names the parameter at fault', async () => {
    const client = (await call('clients/filter?size=1', { body: {} })).body.clients[0];
    const query = `botId=${encodeURIComponent(client.botId)}&clientId=${encodeURIComponent(client.id)}`;
    const put = (path: string, body?: unknown) =>
      call(path, { method: 'PUT', ...(body === undefined ? {} : { body }) });
    expect(
      (
        await call(`clients/block?${query}`, {
          method: 'PUT',
          body: { blockedBy: 1 },
          token: DEFAULT_READONLY_TOKEN,
        })
      ).status,
    ).toBe(403);
    expect(
      (await call(`clients/unblock?${query}`, { method: 'PUT', token: DEFAULT_READONLY_TOKEN })).status,
    ).toBe(403);
    expectParameter(await put(`clients/block?${query}`, {}), 400, 'blockedBy');
    expectParameter(await put(`clients/block?${query}`, { blockedBy: '42' }), 400, 'blockedBy');
    expectParameter(
      await put(`clients/block?${query}`, { blockedBy: 1, blockReason: 5 }),
      400,
      'blockReason',
    );
    expectParameter(await put(`clients/block?${query}`), 400, 'body');
    expectParameter(
      await put(`clients/block?clientId=${encodeURIComponent(client.id)}`, { blockedBy: 1 }),
      400,
      'botId',
    );
    expectParameter(
      await put(`clients/block?botId=${encodeURIComponent(client.botId)}`, { blockedBy: 1 }),
      400,
      'clientId',
    );
    expectParameter(
      await put(`clients/block?botId=${encodeURIComponent(client.botId)}&clientId=nobody`, { blockedBy: 1 }),
      404,
      'clientId',
    );
    const otherBot = p.botIds.find((b) => b !== client.botId)!;
    expectParameter(
      await put(`clients/block?botId=${otherBot}&clientId=${encodeURIComponent(client.id)}`, {
        blockedBy: 1,
      }),
      404,
      'clientId',
    );
    expectParameter(
      await put(`clients/unblock?botId=nobody&clientId=${encodeURIComponent(client.id)}`),
      404,
      'botId',
    );
    expect((await clientRecord(client.id)).isBlocked).toBe(false);
  });
});

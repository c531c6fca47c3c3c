// The statistics views in ClickHouse give the figures of `stats --json` (computeStats over the warehouse,
// whole UTC days, by day): per day sessions, messages, unique clients and transfers, per channel too; the
// delivery funnel with the Chat API's row; session and message labels per day. Against a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncChatApiHistory } from '../../src/chatapi/sync-chatapi-history.js';
import { createClickHouse } from '../../src/clickhouse/clickhouse-http.js';
import { exportClickHouse } from '../../src/clickhouse/export-clickhouse.js';
import { loadConfig } from '../../src/config.js';
import { defaultChatApiToken } from '../../src/emulator/chatapi/channels.js';
import { silentLogger } from '../../src/log.js';
import { computeStats } from '../../src/stats/compute-stats.js';
import { type ClickHouseServer, clickHouseMissing, startClickHouse } from '../helpers/clickhouse-server.js';
import { createHarness } from '../helpers/sync-harness.js';

const missing = clickHouseMissing();
let server: ClickHouseServer | undefined;
beforeAll(async () => {
  if (!missing) server = await startClickHouse();
}, 90_000);
afterAll(async () => {
  await server?.stop();
});

const DAY = 86_400_000;
const n = (v: unknown) => Number(v);

describe.skipIf(missing !== undefined)('the statistics views in ClickHouse', () => {
  it('give the figures of stats --json, day by day', async () => {
    const h = await createHarness({
      emulator: { sessions: 1500, days: 4 },
      env: { REPORTER_CHATAPI_CHANNELS: `site=${defaultChatApiToken('shop-bot')}` },
    });
    const ch = createClickHouse({
      url: server!.url,
      user: 'default',
      password: '',
      database: 'reporter_views',
    });
    try {
      expect((await h.sync()).status).toBe('success');
      await h.withWarehouse((warehouse) =>
        syncChatApiHistory({
          config: loadConfig(h.env),
          warehouse,
          log: silentLogger(),
          now: () => h.running.emulator.now(),
        }),
      );
      await h.withWarehouse((w) => exportClickHouse(w, ch));
      // whole UTC days inside the synced range
      const to = Math.floor(h.running.emulator.now() / DAY) * DAY;
      const from = to - 3 * DAY;
      const stats = await h.withWarehouse((w) =>
        computeStats(w, { from, to, timeZone: 'UTC', period: 'day', top: 10, catchAllClass: '/CatchAll' }),
      );
      const days = [0, 1, 2].map((i) => new Date(from + i * DAY).toISOString().slice(0, 10));
      const inWindow = `day >= '${days[0]}' AND day <= '${days[2]}'`;
      const sessions = await ch.select<Record<string, string>>(
        `SELECT toString(day) AS day, channel, sessions, clients, transferred FROM reporter_views.stats_daily_sessions WHERE ${inWindow} FORMAT JSONEachRow`,
      );
      const clients = await ch.select<Record<string, string>>(
        `SELECT toString(day) AS day, clients FROM reporter_views.stats_daily_clients WHERE ${inWindow} FORMAT JSONEachRow`,
      );
      const messages = await ch.select<Record<string, string>>(
        `SELECT toString(day) AS day, channel, messages FROM reporter_views.stats_daily_messages WHERE ${inWindow} FORMAT JSONEachRow`,
      );
      for (const p of stats.byPeriod) {
        const day = p.period.slice(0, 10);
        const ofDay = sessions.filter((r) => r['day'] === day);
        expect(
          ofDay.reduce((s, r) => s + n(r['sessions']), 0),
          day,
        ).toBe(p.sessions);
        expect(
          ofDay.reduce((s, r) => s + n(r['transferred']), 0),
          day,
        ).toBe(p.transferredSessions);
        expect(n(clients.find((r) => r['day'] === day)?.['clients']), day).toBe(p.uniqueClients);
        expect(
          messages.filter((r) => r['day'] === day).reduce((s, r) => s + n(r['messages']), 0),
          day,
        ).toBe(p.messages);
      }
      for (const p of stats.byPeriodChannel) {
        const day = p.period.slice(0, 10);
        const row = sessions.find((r) => r['day'] === day && r['channel'] === p.channel);
        expect(n(row?.['sessions'] ?? 0), `${day} ${p.channel}`).toBe(p.sessions);
        expect(n(row?.['clients'] ?? 0), `${day} ${p.channel}`).toBe(p.uniqueClients);
      }
      const delivery = await ch.select<Record<string, string>>(
        `SELECT channel, sum(messages) AS messages, sum(with_status) AS with_status, sum(sent) AS sent, sum(delivered) AS delivered, sum(read) AS read, sum(not_sent) AS not_sent FROM reporter_views.stats_daily_delivery WHERE ${inWindow} GROUP BY channel FORMAT JSONEachRow`,
      );
      expect(stats.deliveryFunnel.map((f) => f.channel)).toContain('chatapi');
      for (const f of stats.deliveryFunnel) {
        const row = delivery.find((r) => r['channel'] === f.channel);
        expect(n(row?.['messages']), f.channel).toBe(f.messages);
        expect(n(row?.['with_status']), f.channel).toBe(f.withStatus);
        expect(n(row?.['delivered']), f.channel).toBe(f.delivered);
        if (f.read !== null) expect(n(row?.['read']), f.channel).toBe(f.read);
        if (f.sent !== null) expect(n(row?.['sent']), f.channel).toBe(f.sent);
        expect(n(row?.['not_sent']), f.channel).toBe(f.notSent);
      }
      const sessionLabels = await ch.select<Record<string, string>>(
        `SELECT toString(day) AS day, label_id, sessions FROM reporter_views.stats_daily_session_labels WHERE ${inWindow} FORMAT JSONEachRow`,
      );
      const labelledSessions = stats.sessionLabelsByPeriod.filter((l) => l.count > 0);
      expect(labelledSessions.length).toBeGreaterThan(0);
      for (const l of labelledSessions) {
        const row = sessionLabels.find(
          (r) => r['day'] === l.period.slice(0, 10) && n(r['label_id']) === l.labelId,
        );
        expect(n(row?.['sessions']), `${l.period} ${l.label}`).toBe(l.count);
      }
      const messageLabels = await ch.select<Record<string, string>>(
        `SELECT toString(day) AS day, label_id, messages FROM reporter_views.stats_daily_message_labels WHERE ${inWindow} FORMAT JSONEachRow`,
      );
      for (const l of stats.messageLabelsByPeriod.filter((x) => x.count > 0)) {
        const row = messageLabels.find(
          (r) => r['day'] === l.period.slice(0, 10) && n(r['label_id']) === l.labelId,
        );
        expect(n(row?.['messages']), `${l.period} ${l.label}`).toBe(l.count);
      }
    } finally {
      await ch.close();
      await h.close();
    }
  }, 240_000);
});

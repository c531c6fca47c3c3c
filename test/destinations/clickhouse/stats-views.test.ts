// The statistics views in ClickHouse give the emulator's ground truth (never the code's own figures), whole UTC
// days: per day sessions, messages, unique clients and transfers, per channel too; the delivery funnel of the
// Reporter's channels and the Chat API's row (from the Chat API's truth); labelled sessions and messages per
// label. Against a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createClickHouse } from '../../../src/destinations/clickhouse/clickhouse-http.js';
import { exportClickHouse } from '../../../src/destinations/clickhouse/export-clickhouse.js';
import { defaultChatApiToken } from '../../../src/emulator/chatapi/channels.js';
import { chatChannelTruth } from '../../../src/emulator/chatapi/chat-truth.js';
import { silentLogger } from '../../../src/log.js';
import { syncChatApiHistory } from '../../../src/sources/chatapi/sync-chatapi-history.js';
import {
  type ClickHouseServer,
  clickHouseMissing,
  startClickHouse,
} from '../../helpers/clickhouse-server.js';
import { createHarness } from '../../helpers/sync-harness.js';

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
      const days = [0, 1, 2].map((i) => new Date(from + i * DAY).toISOString().slice(0, 10));
      const inWindow = `day >= '${days[0]}' AND day <= '${days[2]}'`;
      const select = (sql: string) =>
        ch.select<Record<string, string>>(`${sql.replace('$WINDOW', inWindow)} FORMAT JSONEachRow`);
      const sessions = await select(
        'SELECT toString(day) AS day, channel, sessions, transferred FROM reporter_views.stats_daily_sessions WHERE $WINDOW',
      );
      const clients = await select(
        'SELECT toString(day) AS day, clients FROM reporter_views.stats_daily_clients WHERE $WINDOW',
      );
      const messages = await select(
        'SELECT toString(day) AS day, channel, messages FROM reporter_views.stats_daily_messages WHERE $WINDOW',
      );
      const sum = (rows: Record<string, string>[], column: string) =>
        rows.reduce((total, r) => total + n(r[column]), 0);
      days.forEach((day, i) => {
        const truth = h.truth(from + i * DAY, from + (i + 1) * DAY);
        expect(truth.sessions, day).toBeGreaterThan(50);
        const ofDay = sessions.filter((r) => r['day'] === day);
        expect(sum(ofDay, 'sessions'), day).toBe(truth.sessions);
        expect(sum(ofDay, 'transferred'), day).toBe(truth.transferredSessions);
        expect(n(clients.find((r) => r['day'] === day)?.['clients']), day).toBe(truth.uniqueClients);
        expect(
          sum(
            messages.filter((r) => r['day'] === day),
            'messages',
          ),
          day,
        ).toBe(truth.messages);
        for (const [channel, figures] of Object.entries(truth.byChannel)) {
          const row = (rows: Record<string, string>[]) =>
            rows.find((r) => r['day'] === day && r['channel'] === channel);
          expect(n(row(sessions)?.['sessions'] ?? 0), `${day} ${channel}`).toBe(figures.sessions);
          expect(n(row(messages)?.['messages'] ?? 0), `${day} ${channel}`).toBe(figures.messages);
        }
      });

      // the delivery funnel over the three days: the Reporter's channels from its truth (latest status per
      // message), the Chat API's row from the Chat API's truth (bot and agent messages of the channel)
      const truth = h.truth(from, to);
      const delivery = await select(
        'SELECT channel, sum(messages) AS messages, sum(with_status) AS with_status, sum(sent) AS sent, sum(delivered) AS delivered, sum(read) AS read, sum(not_sent) AS not_sent, sum(not_delivered) AS not_delivered FROM reporter_views.stats_daily_delivery WHERE $WINDOW GROUP BY channel',
      );
      const funnelOf = (statuses: Record<string, number>, total: number) => ({
        messages: total,
        with_status: Object.values(statuses).reduce((a, b) => a + b, 0),
        sent: statuses['SENT'] ?? 0,
        delivered: statuses['DELIVERED'] ?? 0,
        read: statuses['READ'] ?? 0,
        not_sent: statuses['NOT_SENT'] ?? 0,
        not_delivered: statuses['NOT_DELIVERED'] ?? 0,
      });
      const numbers = (row: Record<string, string> | undefined) =>
        Object.fromEntries(
          Object.entries(row ?? {})
            .filter(([k]) => k !== 'channel')
            .map(([k, v]) => [k, n(v)]),
        );
      const reporterChannels = ['telegram', 'viber', 'vk'].filter((c) => truth.byChannel[c]);
      expect(reporterChannels.length).toBeGreaterThan(0);
      for (const channel of reporterChannels)
        expect(numbers(delivery.find((r) => r['channel'] === channel)), channel).toEqual(
          funnelOf(truth.statuses[channel] ?? {}, truth.byChannel[channel]!.messages),
        );
      const chat = chatChannelTruth(h.running.emulator, defaultChatApiToken('shop-bot'));
      const answers = chat.clients
        .flatMap((c) => c.messages)
        .filter(
          (m) => m.type !== 'client' && Date.parse(m.timestamp) >= from && Date.parse(m.timestamp) < to,
        );
      expect(answers.length).toBeGreaterThan(0);
      const chatStatuses: Record<string, number> = {};
      for (const m of answers) if (m.status) chatStatuses[m.status] = (chatStatuses[m.status] ?? 0) + 1;
      expect(numbers(delivery.find((r) => r['channel'] === 'chatapi'))).toEqual(
        funnelOf(chatStatuses, answers.length),
      );

      // labelled sessions and messages per label over the three days, by the label's name
      const byLabel = (rows: Record<string, string>[], column: string) => {
        const out: Record<string, number> = {};
        for (const r of rows) out[r['label']!] = (out[r['label']!] ?? 0) + n(r[column]);
        return out;
      };
      const sessionLabels = await select(
        'SELECT label, sessions FROM reporter_views.stats_daily_session_labels WHERE $WINDOW',
      );
      expect(Object.keys(truth.sessionLabels).length).toBeGreaterThan(0);
      expect(byLabel(sessionLabels, 'sessions')).toEqual(truth.sessionLabels);
      const messageLabels = await select(
        'SELECT label, messages FROM reporter_views.stats_daily_message_labels WHERE $WINDOW',
      );
      expect(Object.keys(truth.messageLabels).length).toBeGreaterThan(0);
      expect(byLabel(messageLabels, 'messages')).toEqual(truth.messageLabels);
    } finally {
      await ch.close();
      await h.close();
    }
  }, 240_000);
});

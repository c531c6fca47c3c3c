// Sync of what people change and of catalogues: several projects in one warehouse, blocked clients,
// label catalogues and experiments with their session counts, compared with the emulator's state.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { DEFAULT_V1_TOKEN, defaultLegacyToken } from '../../../src/emulator/emulator.js';
import { groundTruth } from '../../../src/emulator/truth.js';
import { silentLogger } from '../../../src/log.js';
import { syncProject } from '../../../src/sources/reporter/run-sync.js';
import { makeCaller } from '../../helpers/emulator-client.js';
import { createHarness, type Harness, warehouseFigures } from '../../helpers/sync-harness.js';

const HOUR = 3_600_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('sync of state and catalogues', () => {
  it('keeps several projects apart in one warehouse (v1 and legacy side by side)', async () => {
    h = await createHarness({ emulator: { projects: ['shop-bot', 'support-bot'], sessions: 1600 } });
    const file = join(h.dir, 'projects.json');
    writeFileSync(
      file,
      JSON.stringify({
        projects: [
          { baseUrl: h.running.url, token: DEFAULT_V1_TOKEN, api: 'v1', project: 'shop-bot' },
          { baseUrl: h.running.url, token: defaultLegacyToken('support-bot'), api: 'legacy' },
        ],
      }),
    );
    const config = loadConfig({ ...h.env, REPORTER_TOKEN: '', REPORTER_CONFIG: file });
    const now = () => h!.running.emulator.now();
    const summaries = await h.withWarehouse(async (warehouse) => {
      const out = [];
      for (const project of config.projects)
        out.push(await syncProject({ config, warehouse, log: silentLogger(), now }, project));
      return out;
    });
    expect(summaries.map((s) => `${s.project}:${s.status}`)).toEqual([
      'shop-bot:success',
      'support-bot:success',
    ]);
    const to = now() - 5 * 60_000;
    const from = to - 4 * 24 * HOUR;
    for (const name of ['shop-bot', 'support-bot']) {
      const truth = groundTruth(h.running.emulator.project(name), { now: now(), from, to });
      const ids = await h.withWarehouse((w) =>
        w.query('select session_id from sessions where project = $1 order by 1', [name]),
      );
      expect(ids.map((r) => r['session_id'])).toEqual(truth.sessionIds);
      const messages = await h.withWarehouse((w) =>
        w.query('select count(*) as n from messages where project = $1', [name]),
      );
      expect(messages[0]!['n']).toBe(truth.messages);
    }
  });

  it('brings blocked clients, catalogues and experiment counts', async () => {
    h = await createHarness();
    expect((await h.sync()).status).toBe('success');
    const call = makeCaller(h.running.url);
    const recent = await h.withWarehouse((w) =>
      w.query('select client_id, bot_id from sessions order by start_time desc limit 1'),
    );
    const { client_id: clientId, bot_id: botId } = recent[0]! as { client_id: string; bot_id: string };
    const blocked = await call(
      `clients/block?botId=${encodeURIComponent(botId)}&clientId=${encodeURIComponent(clientId)}`,
      {
        method: 'PUT',
        body: { blockedBy: 7, blockReason: 'спам 🚫' },
      },
    );
    expect(blocked.status).toBe(200);
    const created = await call('logs/labels/sessions', { body: { name: 'Новая метка', priority: 9 } });
    expect(created.status).toBe(200);
    expect((await h.sync()).status).toBe('success');

    const client = await h.withWarehouse((w) =>
      w.query('select is_blocked, block_reason, blocked_by from clients where client_id = $1', [clientId]),
    );
    expect(client).toEqual([{ is_blocked: true, block_reason: 'спам 🚫', blocked_by: 7 }]);
    const catalogue = await h.withWarehouse((w) =>
      w.query('select name from session_label_catalogue order by label_id'),
    );
    expect(catalogue.map((r) => r['name'])).toContain('Новая метка');
    const p = h.running.emulator.project('shop-bot');
    expect(catalogue).toHaveLength(p.state.sessionLabels.size);

    const all = groundTruth(p, { now: h.running.emulator.now() });
    const experiments = await h.withWarehouse((w) =>
      w.query('select experiment_key, status, session_count, branches from experiments order by 1'),
    );
    expect(experiments.map((e) => e['experiment_key'])).toEqual(['greeting-test', 'menu-layout']);
    for (const e of experiments) {
      const branches = all.experiments[e['experiment_key'] as string] ?? {};
      expect(e['session_count']).toBe(Object.values(branches).reduce((a, b) => a + b, 0));
      expect(Object.keys(branches).every((b) => (e['branches'] as string[]).includes(b))).toBe(true);
    }
    // the warehouse's sessionData agrees with the experiment joins
    const joined = await h.withWarehouse((w) =>
      w.query(
        "select value, count(*) as n from session_data where key = 'exp_greeting-test' group by 1 order by 1",
      ),
    );
    const to = h.running.emulator.now() - 5 * 60_000;
    const window = groundTruth(p, { now: h.running.emulator.now(), from: to - 4 * 24 * HOUR, to });
    expect(Object.fromEntries(joined.map((r) => [r['value'], r['n']]))).toEqual(
      window.experiments['greeting-test'],
    );
    const figures = await h.withWarehouse((w) => warehouseFigures(w, to - 4 * 24 * HOUR, to));
    expect(figures.duplicates).toBe(0);
  });
});

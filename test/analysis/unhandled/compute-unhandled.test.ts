// `computeUnhandled` over a synced warehouse, judged by the emulator's truth: the period's and the previous
// period's catch-all counts, each topic's messages in one stored cluster, each cluster's clients and sessions
// sent to an agent counted from the emulator's sessions (not from the warehouse), and a run computed again
// replacing the first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeUnhandled, type UnhandledRun } from '../../../src/analysis/unhandled/compute-unhandled.js';
import { runStats } from '../../../src/cli/commands/stats.js';
import { runUnhandled } from '../../../src/cli/commands/unhandled.js';
import { parseQuestionId } from '../../../src/emulator/ids.js';
import { unhandledTruth } from '../../../src/emulator/unhandled-truth.js';
import { silentLogger } from '../../../src/log.js';
import { toCleanJson } from '../../../src/text/format-figures.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';

const DAY = 86_400_000;

describe('computeUnhandled against the emulator truth', () => {
  let h: Harness;
  let run: UnhandledRun;
  let members: Map<string, string>;
  let from: number;
  let to: number;
  beforeAll(async () => {
    h = await createHarness({ emulator: { sessions: 3000, days: 14 }, env: { REPORTER_HISTORY_DAYS: '15' } });
    await h.sync();
    to = Math.floor(h.running.emulator.now() / DAY) * DAY;
    from = to - 7 * DAY;
    const query = { catchAllClass: '/CatchAll', from, to };
    run = await h.withWarehouse((w) => computeUnhandled(w, query, new Date(h.running.emulator.now())));
    const rows = await h.withWarehouse((w) =>
      w.query('select question_id, cluster_id from unhandled_members where run_id = $run', {
        run: run.runId,
      }),
    );
    members = new Map(rows.map((r) => [String(r['question_id']), String(r['cluster_id'])]));
  }, 120_000);
  afterAll(() => h.close());

  it('counts the catch-all messages of the period and of the previous one as the truth does', () => {
    expect(run.unrecognised).toBe(h.truth(from, to).nlpClasses['/CatchAll']);
    expect(run.previousUnrecognised).toBe(h.truth(from - 7 * DAY, from).nlpClasses['/CatchAll']);
    expect(run.clustered).toBe(members.size);
    expect(run.clusters.reduce((n, c) => n + c.messages, 0)).toBe(members.size);
  });

  it("puts at least 90 % of each topic's messages in one cluster, and that cluster is mostly the topic", () => {
    const p = h.running.emulator.project('shop-bot');
    const truth = unhandledTruth(p, { from, to, now: h.running.emulator.now() });
    for (const [topic, total] of Object.entries(truth.topics)) {
      const byCluster = new Map<string, number>();
      for (const [id, t] of truth.topicOf) {
        const cluster = members.get(id);
        if (t === topic && cluster !== undefined) byCluster.set(cluster, (byCluster.get(cluster) ?? 0) + 1);
      }
      const [cluster, count] = [...byCluster].sort((a, b) => b[1] - a[1])[0]!;
      expect({ topic, share: count / total >= 0.9 }).toEqual({ topic, share: true });
      const size = run.clusters.find((c) => c.id === cluster)!.messages;
      expect({ topic, purity: count / size >= 0.9 }).toEqual({ topic, purity: true });
    }
  });

  it("counts each cluster's clients, channels and sessions sent to an agent as the emulator's sessions say", () => {
    const p = h.running.emulator.project('shop-bot');
    const now = h.running.emulator.now();
    const expected = new Map<string, { clients: Set<number>; agent: Set<number>; channels: Set<string> }>();
    for (let i = 0; i < p.skeleton.sessionCount; i++) {
      const visible = p.skeleton.visibleMessageCount(i, now);
      const transfer = p.skeleton.transferAt.get(i);
      for (let k = 0; k < visible; k++) {
        const cluster = members.get(p.questionId(i, k));
        if (cluster === undefined) continue;
        const row = expected.get(cluster) ?? { clients: new Set(), agent: new Set(), channels: new Set() };
        row.clients.add(p.skeleton.client.get(i));
        row.channels.add(p.channelOf(i));
        if (transfer > k && transfer < visible) row.agent.add(i);
        expected.set(cluster, row);
      }
    }
    for (const c of run.clusters) {
      const e = expected.get(c.id)!;
      expect({ id: c.id, clients: c.clients, agent: c.agentSessions, channels: c.channels }).toEqual({
        id: c.id,
        clients: e.clients.size,
        agent: e.agent.size,
        channels: [...e.channels].sort(),
      });
      expect(c.share).toBeCloseTo(c.messages / run.unrecognised, 12);
    }
    expect(run.clusters.some((c) => c.agentSessions > 0)).toBe(true);
  });

  it('stats --json shows the stored run of its window under `unhandled` (null for another selection)', async () => {
    const stats = async (...args: string[]) => {
      const out: string[] = [];
      const io = { out: (line: string) => out.push(line), err: () => {}, isTty: false };
      const iso = (t: number) => new Date(t).toISOString();
      const code = await runStats(['--json', '--from', iso(from), '--to', iso(to), ...args], io, {
        env: h.env,
        now: () => h.running.emulator.now(),
        log: silentLogger(),
      });
      expect(code).toBe(0);
      return JSON.parse(out.join('\n')) as {
        unhandled: (Omit<UnhandledRun, 'clusters'> & Pick<UnhandledRun, 'clusters'>) | null;
      };
    };
    const json = await stats('--top', '5');
    expect(json.unhandled).toMatchObject({
      runId: run.runId,
      unrecognised: run.unrecognised,
      clustered: run.clustered,
      // as --json writes every figure: 12 significant digits, no binary noise
      clusters: JSON.parse(toCleanJson(run.clusters.slice(0, 5))),
    });
    expect((await stats('--channel', 'telegram')).unhandled).toBeNull();
  });

  it('stores masked phrasings only, and a period computed again replaces its run', async () => {
    for (const c of run.clusters)
      for (const text of [c.label, ...c.examples]) expect(text).not.toMatch(/\d|@/);
    const again = await h.withWarehouse((w) =>
      computeUnhandled(w, { catchAllClass: '/CatchAll', from, to }, new Date(h.running.emulator.now())),
    );
    expect(again).toEqual(run);
    const counts = await h.withWarehouse((w) =>
      w.query(
        `select (select count(*) from unhandled_runs) as runs, (select count(*) from unhandled_members) as members,
          (select count(*) from unhandled_clusters) as clusters`,
      ),
    );
    expect(counts[0]).toEqual({ runs: 1, members: members.size, clusters: run.clusters.length });
  });
});

describe('reporter-etl unhandled', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ emulator: { sessions: 1500, days: 8 }, env: { REPORTER_HISTORY_DAYS: '9' } });
    await h.sync();
  }, 120_000);
  afterAll(() => h.close());

  async function cli(args: string[]) {
    const out: string[] = [];
    const io = { out: (line: string) => out.push(line), err: () => {}, isTty: false };
    const code = await runUnhandled(args, io, { env: h.env, now: () => h.running.emulator.now() });
    return { code, out: out.join('\n') };
  }

  it('--json prints the run of the last 7 whole days, its counts those of the truth', async () => {
    const r = await cli(['--json', '--channel', 'Telegram']);
    expect(r.code).toBe(0);
    const run = JSON.parse(r.out) as UnhandledRun;
    const to = Math.floor(h.running.emulator.now() / DAY) * DAY;
    expect([run.from, run.to, run.channel]).toEqual([
      new Date(to - 7 * DAY).toISOString(),
      new Date(to).toISOString(),
      'telegram',
    ]);
    const p = h.running.emulator.project('shop-bot');
    const now = h.running.emulator.now();
    const truth = unhandledTruth(p, { from: to - 7 * DAY, to, now });
    const telegram = [...truth.topicOf.keys(), ...truth.noise].filter(
      (id) => p.channelOf(parseQuestionId(p.seed, id)!.i) === 'telegram',
    );
    expect(run.unrecognised).toBe(telegram.length);
    for (const c of run.clusters) expect(c.channels).toEqual(['telegram']);
  });

  it('prints a summary and a table of the top clusters for people', async () => {
    const r = await cli(['--top', '3']);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toMatch(/^Unhandled questions .* \d+ unrecognised .* in \d+ clusters/);
    expect(lines[1]).toMatch(/rank\s+id\s+messages/);
    expect(lines).toHaveLength(5);
  });

  it('refuses bad input naming the option', async () => {
    await expect(cli(['--from', '2026-11-02', '--to', '2026-11-01'])).rejects.toThrow(/--from/);
    await expect(cli(['--top', '0'])).rejects.toThrow(/--top/);
    await expect(cli(['--tz', 'Mars/Base'])).rejects.toThrow(/--tz|zone/i);
  });
});

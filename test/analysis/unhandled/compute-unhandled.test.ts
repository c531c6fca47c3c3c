// `computeUnhandled` over a synced warehouse, judged by the emulator's truth: the period's and the previous
// period's catch-all counts, each topic's messages in at most 3 pure stored clusters, "other" (the noise), each
// cluster's clients and sessions sent to an agent counted from the emulator's sessions (not from the
// warehouse), a run computed again replacing the first, and the ids of a run carried over to the next.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeUnhandled, type UnhandledRun } from '../../../src/analysis/unhandled/compute-unhandled.js';
import { runStats } from '../../../src/cli/commands/stats.js';
import { runUnhandled } from '../../../src/cli/commands/unhandled.js';
import { parseQuestionId } from '../../../src/emulator/ids.js';
import { unhandledTruth } from '../../../src/emulator/unhandled-truth.js';
import { EtlError } from '../../../src/errors.js';
import { silentLogger } from '../../../src/log.js';
import { toCleanJson } from '../../../src/text/format-figures.js';
import { UNHANDLED_WINDOW_HOURS } from '../../helpers/record-unhandled.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';

const DAY = 86_400_000;

describe('computeUnhandled against the emulator truth', () => {
  let h: Harness;
  let run: UnhandledRun;
  let members: Map<string, string>;
  let from: number;
  let to: number;
  beforeAll(async () => {
    h = await createHarness({
      emulator: { sessions: 3000, days: 14 },
      env: { REPORTER_HISTORY_DAYS: '15', REPORTER_WINDOW_HOURS: UNHANDLED_WINDOW_HOURS },
    });
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

  it("puts at least 90 % of each topic's messages in at most 3 clusters of its own, each mostly the topic", () => {
    const p = h.running.emulator.project('shop-bot');
    const truth = unhandledTruth(p, { from, to, now: h.running.emulator.now() });
    for (const [topic, total] of Object.entries(truth.topics)) {
      const byCluster = new Map<string, number>();
      for (const [id, t] of truth.topicOf) {
        const cluster = members.get(id);
        if (t === topic && cluster !== undefined) byCluster.set(cluster, (byCluster.get(cluster) ?? 0) + 1);
      }
      const own = [...byCluster].filter(
        ([cluster, count]) => count / run.clusters.find((c) => c.id === cluster)!.messages >= 0.9,
      );
      const held = own.reduce((n, [, count]) => n + count, 0) / total;
      expect({ topic, clusters: own.length <= 3, held: held >= 0.9 }).toEqual({
        topic,
        clusters: true,
        held: true,
      });
    }
  });

  it('counts as "other" the messages in no cluster: most of the one-off noise', () => {
    const p = h.running.emulator.project('shop-bot');
    const truth = unhandledTruth(p, { from, to, now: h.running.emulator.now() });
    expect(run.other.messages).toBe(run.unrecognised - members.size);
    expect(run.other.messages).toBeGreaterThan(0);
    const noiseInOther = truth.noise.filter((id) => !members.has(id)).length;
    expect(noiseInOther / truth.noise.length).toBeGreaterThanOrEqual(0.9);
    expect(noiseInOther / run.other.messages).toBeGreaterThanOrEqual(0.9);
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
      // "other" said plainly: the messages of the period in no cluster
      other: JSON.parse(toCleanJson(run.other)),
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

  it('joins each message to its cluster by its text even where texts share a key (keys of 4 bits)', async () => {
    // 16 keys for hundreds of texts: every key shared, so every text is staged with its raw text as well
    const shared = await h.withWarehouse((w) =>
      computeUnhandled(w, { catchAllClass: '/CatchAll', from, to }, new Date(h.running.emulator.now()), {
        keyShift: 60,
      }),
    );
    expect(shared).toEqual(run);
    const rows = await h.withWarehouse((w) =>
      w.query('select question_id, cluster_id from unhandled_members where run_id = $run', {
        run: run.runId,
      }),
    );
    expect(rows.length).toBe(members.size);
    expect(new Map(rows.map((r) => [String(r['question_id']), String(r['cluster_id'])]))).toEqual(members);
  });

  it('carries ids over to the next run: the same topics keep their ids a week later', async () => {
    const now = new Date(h.running.emulator.now());
    const earlier = await h.withWarehouse((w) =>
      computeUnhandled(w, { catchAllClass: '/CatchAll', from: from - 7 * DAY, to: to - 7 * DAY }, now),
    );
    const later = await h.withWarehouse((w) =>
      computeUnhandled(w, { catchAllClass: '/CatchAll', from, to }, now),
    );
    expect([earlier.previousRunId, later.previousRunId]).toEqual([null, earlier.runId]);
    const p = h.running.emulator.project('shop-bot');
    const largestOf = async (r: UnhandledRun, a: number, b: number) => {
      const rows = await h.withWarehouse((w) =>
        w.query('select question_id, cluster_id from unhandled_members where run_id = $run', {
          run: r.runId,
        }),
      );
      const truth = unhandledTruth(p, { from: a, to: b, now: now.getTime() });
      const counts = new Map<string, Map<string, number>>();
      for (const row of rows) {
        const topic = truth.topicOf.get(String(row['question_id']));
        if (topic === undefined) continue;
        const c = counts.get(topic) ?? new Map<string, number>();
        c.set(String(row['cluster_id']), (c.get(String(row['cluster_id'])) ?? 0) + 1);
        counts.set(topic, c);
      }
      return new Map(
        [...counts].map(([t, c]) => [t, new Set([...c].filter(([, n]) => n >= 10).map(([id]) => id))]),
      );
    };
    const before = await largestOf(earlier, from - 7 * DAY, to - 7 * DAY);
    const after = await largestOf(later, from, to);
    // each topic's clusters (those holding 10 messages or more) have the same ids a week later
    const kept = [...before].filter(([t, ids]) => [...ids].every((id) => after.get(t)?.has(id)));
    expect(kept.length / before.size).toBeGreaterThanOrEqual(0.9);
  });
});

describe('reporter-etl unhandled', () => {
  let h: Harness;
  const KEY = 'embeddings-key-0123456789';
  beforeAll(async () => {
    h = await createHarness({
      emulator: { sessions: 1500, days: 8, embeddingsKey: KEY },
      env: { REPORTER_HISTORY_DAYS: '9', REPORTER_WINDOW_HOURS: UNHANDLED_WINDOW_HOURS },
    });
    await h.sync();
  }, 120_000);
  afterAll(() => h.close());

  async function cli(args: string[], env: Record<string, string> = {}) {
    const out: string[] = [];
    const io = { out: (line: string) => out.push(line), err: () => {}, isTty: false };
    const code = await runUnhandled(args, io, {
      env: { ...h.env, ...env },
      now: () => h.running.emulator.now(),
    });
    return { code, out: out.join('\n') };
  }
  const embeddingsUrl = (key: string) => h.running.embeddingsUrl.replace('http://', `http://:${key}@`);

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
    expect(lines[0]).toMatch(/, \d+ other \(\d+%\)$/);
    expect(lines[1]).toMatch(/rank\s+id\s+messages/);
    expect(lines[5]).toMatch(/^other: \d+ messages \(\d+\.\d%, \d+ distinct texts\) joined no topic/);
    expect(lines).toHaveLength(6);
  });

  it('with REPORTER_EMBEDDINGS_URL, clusters the endpoint’s vectors (the emulator’s test double): topics still pure', async () => {
    const requests = h.running.emulator.embeddingRequests;
    const r = await cli(['--json'], {
      REPORTER_EMBEDDINGS_URL: embeddingsUrl(KEY),
      REPORTER_EMBEDDINGS_MODEL: 'test-model',
    });
    expect(r.code).toBe(0);
    const run = JSON.parse(r.out) as UnhandledRun;
    expect(run.vectors).toBe('embeddings:test-model');
    expect(h.running.emulator.embeddingRequests).toBeGreaterThan(requests);
    const rows = await h.withWarehouse((w) =>
      w.query('select question_id, cluster_id from unhandled_members where run_id = $run', {
        run: run.runId,
      }),
    );
    const to = Math.floor(h.running.emulator.now() / DAY) * DAY;
    const truth = unhandledTruth(h.running.emulator.project('shop-bot'), {
      from: to - 7 * DAY,
      to,
      now: h.running.emulator.now(),
    });
    const byCluster = new Map<string, Map<string, number>>();
    for (const row of rows) {
      const topic = truth.topicOf.get(String(row['question_id'])) ?? '(noise)';
      const c = byCluster.get(String(row['cluster_id'])) ?? new Map<string, number>();
      c.set(topic, (c.get(topic) ?? 0) + 1);
      byCluster.set(String(row['cluster_id']), c);
    }
    const majority = [...byCluster.values()].reduce((n, c) => n + Math.max(...c.values()), 0);
    expect(majority / rows.length).toBeGreaterThanOrEqual(0.9);
    expect(rows.length).toBeGreaterThanOrEqual(truth.topicOf.size * 0.9);
  });

  it('a refused embeddings key stops the command with embeddings.auth, the key in no message', async () => {
    const wrong = 'wrong-embeddings-key-9876';
    const failure = await cli(['--json'], { REPORTER_EMBEDDINGS_URL: embeddingsUrl(wrong) }).catch(
      (e: unknown) => e as EtlError,
    );
    expect(failure).toBeInstanceOf(EtlError);
    expect((failure as EtlError).code).toBe('embeddings.auth');
    expect(
      JSON.stringify({ message: (failure as EtlError).message, cause: String((failure as EtlError).cause) }),
    ).not.toContain(wrong);
  });

  it('refuses an embeddings URL it cannot use, naming the setting and never its value', async () => {
    const bad = 'http://127.0.0.1:9/v1/embeddings?api_key=secret-in-query-123456';
    const failure = await cli(['--json'], { REPORTER_EMBEDDINGS_URL: bad }).catch((e: unknown) => e as Error);
    expect(String(failure)).toMatch(/REPORTER_EMBEDDINGS_URL/);
    expect(String(failure)).not.toContain('secret-in-query');
  });

  it('refuses bad input naming the option', async () => {
    await expect(cli(['--from', '2026-11-02', '--to', '2026-11-01'])).rejects.toThrow(/--from/);
    await expect(cli(['--top', '0'])).rejects.toThrow(/--top/);
    await expect(cli(['--tz', 'Mars/Base'])).rejects.toThrow(/--tz|zone/i);
  });
});

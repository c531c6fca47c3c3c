// The coverage of the top clusters (docs/unhandled.md#coverage) by the emulated knowledge base and the
// Prompter, judged by the truth: each cluster's topic is the truth's topic of most of its messages, and it is
// answerable when the emulator's knowledge base holds an answer to that topic (unhandledTruth().coveredTopics,
// the FAQ sources of src/emulator/kb/kb-topic-answers.ts), its best source then that FAQ. Without
// REPORTER_KB_KEY nothing is asked; the Prompter's suggestions are counted from recorded requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeCoverage } from '../../../src/analysis/unhandled/store-coverage.js';
import { runUnhandled } from '../../../src/cli/commands/unhandled.js';
import type { CoveredCluster } from '../../../src/cli/commands/unhandled-coverage.js';
import { kbKeys } from '../../../src/emulator/kb/kb-truth.js';
import { unhandledTruth } from '../../../src/emulator/unhandled-truth.js';
import { createUnhandledHarness } from '../../helpers/record-unhandled.js';
import type { Harness } from '../../helpers/sync-harness.js';

describe('coverage of the top unhandled clusters against the emulator truth', () => {
  let h: Harness;
  let from: number;
  let to: number;
  async function cli(env: Record<string, string>) {
    const out: string[] = [];
    const io = { out: (line: string) => out.push(line), err: () => {}, isTty: false };
    const args = ['--from', new Date(from).toISOString(), '--to', new Date(to).toISOString(), '--json'];
    const code = await runUnhandled(args, io, { env, now: () => h.running.emulator.now() });
    expect(code).toBe(0);
    return JSON.parse(out.join('\n')) as { runId: string; clusters: CoveredCluster[] };
  }
  const kbEnv = () => {
    const keys = kbKeys(h.running.emulator);
    return {
      ...h.env,
      REPORTER_KB_BASE_URL: `${h.running.url}${keys.basePath}`,
      REPORTER_KB_KEY: keys.projectKey,
    };
  };
  /** Each cluster's topic: the truth's topic of most of its messages. */
  async function topicsOf(runId: string): Promise<Map<string, string>> {
    const truth = unhandledTruth(h.running.emulator.project('shop-bot'), {
      from,
      to,
      now: h.running.emulator.now(),
    });
    const rows = await h.withWarehouse((w) =>
      w.query('select question_id, cluster_id from unhandled_members where run_id = $run', { run: runId }),
    );
    const counts = new Map<string, Map<string, number>>();
    for (const r of rows) {
      const topic = truth.topicOf.get(String(r['question_id'])) ?? 'noise';
      const byTopic = counts.get(String(r['cluster_id'])) ?? new Map<string, number>();
      byTopic.set(topic, (byTopic.get(topic) ?? 0) + 1);
      counts.set(String(r['cluster_id']), byTopic);
    }
    return new Map([...counts].map(([c, t]) => [c, [...t].sort((a, b) => b[1] - a[1])[0]![0]]));
  }

  // the period's run without REPORTER_KB_KEY, computed once: the runs with a key below compute the same period
  // again, which replaces it with the same clusters (the clustering is deterministic, its ids carried over)
  let plain: { runId: string; clusters: CoveredCluster[] };
  beforeAll(async () => {
    ({ h, from, to } = await createUnhandledHarness());
    plain = await cli(h.env);
  }, 120_000);
  afterAll(() => h.close());

  it('without REPORTER_KB_KEY asks nothing: answerable unknown', () => {
    const top = plain.clusters.slice(0, 20);
    expect(top.length).toBeGreaterThan(0);
    for (const c of top) expect(c.coverage).toMatchObject({ kbAsked: false, answerable: null, score: null });
  });

  it("'answerable' agrees with the truth for at least 90 % of the top 20 clusters", async () => {
    const run = await cli(kbEnv());
    const truth = unhandledTruth(h.running.emulator.project('shop-bot'), { from, to, now: 0 });
    const topics = await topicsOf(run.runId);
    const top = run.clusters.slice(0, 20);
    const judged = top.map((c) => {
      const topic = topics.get(c.id)!;
      const covered = truth.coveredTopics.includes(topic);
      return {
        label: c.label,
        topic,
        covered,
        answerable: c.coverage?.answerable,
        score: c.coverage?.score,
        terms: c.coverage?.termsFound,
      };
    });
    const agree = judged.filter((j) => j.answerable === j.covered).length;
    expect(agree / judged.length, JSON.stringify(judged, null, 1)).toBeGreaterThanOrEqual(0.9);
    // the covered ones on both sides of the threshold: a test that could fail either way
    expect(judged.some((j) => j.covered) && judged.some((j) => !j.covered)).toBe(true);
    for (const c of top) {
      const topic = topics.get(c.id)!;
      if (truth.coveredTopics.includes(topic) && c.coverage?.answerable)
        expect(c.coverage.bestSourceName).toBe(`faq-${topic}.txt`);
    }
  });

  it('a refused REPORTER_KB_KEY stops the command with kb.auth, the key in no message', async () => {
    const key = 'not-the-kb-key-4711';
    const error = await cli({ ...kbEnv(), REPORTER_KB_KEY: key }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'kb.auth', exitCode: 1 });
    expect(String((error as Error).message)).not.toContain(key);
  });

  it("counts the Prompter's recorded suggestions for a cluster's messages", async () => {
    const run = plain;
    const [first, second] = run.clusters;
    await h.withWarehouse(async (w) => {
      const texts = await w.query(
        `select distinct m.question from unhandled_members u join messages m using (project, question_id)
         where u.run_id = $run and u.cluster_id = $id order by 1 limit 2`,
        { run: run.runId, id: first!.id },
      );
      for (const [n, t] of texts.entries()) {
        await w.query(
          `insert into prompter_requests (batch_id, seq, channel, source, question, client_id, chat_id, question_id, sent_at, outcome)
           values ('b', $seq, 'web', 'test', $q, 'c', 'chat', $qid, now(), 'answered')`,
          { seq: n + 1, q: String(t['question']), qid: `pq-${n}` },
        );
        for (const rank of [1, 2])
          await w.query(
            `insert into prompter_answer_options (question_id, chat_id, client_id, rank, intent_path, received_at)
             values ($qid, 'chat', 'c', $rank, $intent, now())`,
            { qid: `pq-${n}`, rank, intent: rank === 1 ? '/Gifts' : '/Other' },
          );
      }
      const coverage = await storeCoverage(
        w,
        run.runId,
        [first!, second!].map((c) => ({
          clusterId: c.id,
          question: c.label,
          asked: false,
          sourceId: null,
          sourceName: null,
          score: null,
          chunk: null,
          error: null,
        })),
        new Date(h.running.emulator.now()),
      );
      expect(coverage.get(first!.id)).toMatchObject({
        prompterRequests: texts.length,
        prompterSuggestions: 2 * texts.length,
        prompterTopIntent: '/Gifts',
      });
      expect(coverage.get(second!.id)).toMatchObject({ prompterRequests: 0, prompterTopIntent: null });
    });
  });
});

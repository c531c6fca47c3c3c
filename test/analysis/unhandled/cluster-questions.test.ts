// The clustering of unhandled questions against the emulator's truth of hidden topics: a month of catch-all
// messages (paraphrases with synonyms, typos, word order, case, numbers, in Russian and English, plus one-off
// noise) grouped without the truth, then judged by it: purity, each topic in one cluster, ids kept when the
// period moves by a week, and masking of contacts and numbers.
import { describe, expect, it } from 'vitest';
import {
  type Clustering,
  clusterQuestions,
  type QuestionCount,
} from '../../../src/analysis/unhandled/cluster-questions.js';
import { maskQuestion, signatureTerms } from '../../../src/analysis/unhandled/normalise-question.js';
import { Emulator } from '../../../src/emulator/emulator.js';
import type { ProjectData } from '../../../src/emulator/project-data.js';
import { unhandledTruth } from '../../../src/emulator/unhandled-truth.js';
import { FALLBACK_CLASS } from '../../../src/emulator/vocabulary.js';
import { TEST_NOW } from '../../helpers/emulator-client.js';

const DAY = 86_400_000;
const emulator = new Emulator({ seed: 7, sessions: 9000, days: 40, now: TEST_NOW });
const project = emulator.project('shop-bot');

/** The catch-all messages of [from, to) with their texts, straight from the emulator's records. */
function catchAllMessages(p: ProjectData, from: number, to: number): { id: string; text: string }[] {
  const out: { id: string; text: string }[] = [];
  for (let i = 0; i < p.skeleton.sessionCount; i++) {
    for (let k = 0; k < p.skeleton.visibleMessageCount(i, TEST_NOW); k++) {
      const t = p.skeleton.messageTime(i, k);
      if (t < from || t >= to) continue;
      const facts = p.messageFacts(i, k);
      if (facts.nlpClass === FALLBACK_CLASS) out.push({ id: p.questionId(i, k), text: facts.question ?? '' });
    }
  }
  return out;
}

interface PeriodResult {
  clustering: Clustering;
  /** question id → cluster id (undefined: unclustered). */
  clusterOfMessage: Map<string, string | undefined>;
  truth: ReturnType<typeof unhandledTruth>;
}

function clusterPeriod(from: number, to: number): PeriodResult {
  const messages = catchAllMessages(project, from, to);
  const counts = new Map<string, QuestionCount>();
  for (const m of messages) {
    const c = counts.get(m.text) ?? { question: m.text, current: 0, previous: 0 };
    c.current++;
    counts.set(m.text, c);
  }
  const questions = [...counts.values()];
  const clustering = clusterQuestions(questions);
  const byText = new Map(questions.map((q, n) => [q.question, clustering.clusterOf[n]]));
  const clusterOfMessage = new Map(messages.map((m) => [m.id, byText.get(m.text)]));
  return { clustering, clusterOfMessage, truth: unhandledTruth(project, { from, to, now: TEST_NOW }) };
}

/** For each topic, its messages per cluster id. */
function topicClusters(r: PeriodResult): Map<string, Map<string | undefined, number>> {
  const out = new Map<string, Map<string | undefined, number>>();
  for (const [id, topic] of r.truth.topicOf) {
    const row = out.get(topic) ?? new Map<string | undefined, number>();
    const cluster = r.clusterOfMessage.get(id);
    row.set(cluster, (row.get(cluster) ?? 0) + 1);
    out.set(topic, row);
  }
  return out;
}

function largestCluster(row: Map<string | undefined, number>): [string | undefined, number] {
  return [...row].filter(([c]) => c !== undefined).sort((a, b) => b[1] - a[1])[0] ?? [undefined, 0];
}

const month = clusterPeriod(TEST_NOW - 30 * DAY, TEST_NOW);

describe('clusters of unhandled questions against the emulator truth', () => {
  it('the month holds every hidden topic and noise', () => {
    expect(Object.keys(month.truth.topics).length).toBeGreaterThanOrEqual(12);
    expect(month.truth.noise.length).toBeGreaterThan(50);
    expect(month.clusterOfMessage.size).toBe(month.truth.topicOf.size + month.truth.noise.length);
  });

  it('clusters are pure: at least 90 % of the clustered messages share their cluster majority topic', () => {
    const byCluster = new Map<string, Map<string, number>>();
    for (const [id, cluster] of month.clusterOfMessage) {
      if (cluster === undefined) continue;
      const topic = month.truth.topicOf.get(id) ?? '(noise)';
      const row = byCluster.get(cluster) ?? new Map<string, number>();
      row.set(topic, (row.get(topic) ?? 0) + 1);
      byCluster.set(cluster, row);
    }
    let majority = 0;
    let total = 0;
    for (const row of byCluster.values()) {
      majority += Math.max(...row.values());
      for (const n of row.values()) total += n;
    }
    expect(total).toBeGreaterThan(0);
    expect(majority / total).toBeGreaterThanOrEqual(0.9);
  });

  it("at least 90 % of each topic's messages are in that topic's largest cluster", () => {
    const shares = [...topicClusters(month)].map(([topic, row]) => ({
      topic,
      share: Math.round((largestCluster(row)[1] / month.truth.topics[topic]!) * 1000) / 1000,
    }));
    expect(shares.filter((s) => s.share < 0.9)).toEqual([]);
  });

  it('each topic has a cluster of its own (no two topics share their largest cluster)', () => {
    const owners = [...topicClusters(month).values()].map((row) => largestCluster(row)[0]);
    expect(new Set(owners).size).toBe(owners.length);
  });

  it('a topic keeps its cluster id when the period moves by a week', () => {
    const earlier = clusterPeriod(TEST_NOW - 37 * DAY, TEST_NOW - 7 * DAY);
    const now = topicClusters(month);
    for (const [topic, row] of topicClusters(earlier)) {
      expect({ topic, id: largestCluster(row)[0] }).toEqual({
        topic,
        id: largestCluster(now.get(topic)!)[0],
      });
    }
  });

  it('sizes, labels and examples: masked, the sizes summing to the clustered messages', () => {
    const clustered = [...month.clusterOfMessage.values()].filter((c) => c !== undefined).length;
    expect(month.clustering.clusters.reduce((n, c) => n + c.current, 0)).toBe(clustered);
    for (const c of month.clustering.clusters) {
      expect(c.examples.length).toBeGreaterThan(0);
      expect(c.examples.length).toBeLessThanOrEqual(5);
      for (const text of [c.label, ...c.examples]) expect(text).not.toMatch(/\d|@/);
    }
  });

  it('is deterministic: the same questions in another order give the same clusters', () => {
    const messages = catchAllMessages(project, TEST_NOW - 10 * DAY, TEST_NOW);
    const counts = [...new Set(messages.map((m) => m.text))].map((question) => ({
      question,
      current: 1,
      previous: 0,
    }));
    const forward = clusterQuestions(counts).clusters;
    const backward = clusterQuestions([...counts].reverse()).clusters;
    expect(backward).toEqual(forward);
  });
});

describe('masking a question', () => {
  it('masks e-mails, phones and numbers, drops punctuation and case, keeps letters of any script', () => {
    expect(
      maskQuestion('Пришлите СЧЁТ на Ivan.Petrov@mail.ru, тел. +7 (912) 345-67-89, заказ №12345!!!'),
    ).toBe('пришлите счет на <email> тел <phone> заказ no <n>');
    expect(maskQuestion('ｆｕｌｌ\u0007width ２０２６')).toBe('full width <n>');
  });

  it('a signature ignores order, case, stop words and endings', () => {
    expect(signatureTerms(maskQuestion('Можно купить ПОДАРОЧНЫЙ сертификат?'))).toEqual(
      signatureTerms(maskQuestion('сертификаты подарочные купить')),
    );
  });
});

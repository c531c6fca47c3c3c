// The clustering of unhandled questions against the emulator's truth of hidden topics: a month of catch-all
// messages (paraphrases with synonyms, typos, word order, case, numbers, in Russian and English, plus one-off
// noise) grouped without the truth, then judged by it. A topic may be told in a few clusters (its phrasings
// with few words in common: the method knows no synonyms), so the truth asks what the issue asks: pure
// clusters (≥ 0.9), each topic in at most 3 clusters of its own holding ≥ 90 % of its messages, the noise
// mostly "other", ids kept when the period moves by a week (the previous run given), labels short and masked.
import { describe, expect, it } from 'vitest';
import {
  type Clustering,
  clusterQuestions,
  type PreviousRun,
} from '../../../src/analysis/unhandled/cluster-questions.js';
import { maskQuestion } from '../../../src/analysis/unhandled/normalise-question.js';
import { LABEL_MAX } from '../../../src/analysis/unhandled/topic-label.js';
import { Emulator } from '../../../src/emulator/emulator.js';
import type { ProjectData } from '../../../src/emulator/project-data.js';
import { FALLBACK_CLASS } from '../../../src/emulator/vocabulary.js';
import { largestClusterOf, messagesByTopic, scoreAgainstTruth } from '../../helpers/cluster-truth.js';
import { TEST_NOW } from '../../helpers/emulator-client.js';

const DAY = 86_400_000;
const emulator = new Emulator({ seed: 7, sessions: 9000, days: 40, now: TEST_NOW });
const project = emulator.project('shop-bot');

interface Message {
  text: string;
  /** Its hidden topic; undefined: noise. */
  topic: string | undefined;
}

/** The catch-all messages of [from, to) with their texts and topics, straight from the emulator's records. */
function catchAllMessages(p: ProjectData, from: number, to: number): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < p.skeleton.sessionCount; i++)
    for (let k = 0; k < p.skeleton.visibleMessageCount(i, TEST_NOW); k++) {
      const t = p.skeleton.messageTime(i, k);
      if (t < from || t >= to || p.messageFacts(i, k).nlpClass !== FALLBACK_CLASS) continue;
      out.push({ text: p.messageFacts(i, k).question ?? '', topic: p.catchAllQuestion(i, k).topic });
    }
  return out;
}

interface Period {
  messages: Message[];
  clustering: Clustering;
  /** Each message's cluster id (undefined: other). */
  clusterOf: (string | undefined)[];
}

/** One input per distinct raw text, as the warehouse's GROUP BY question hands them over. */
async function clusterPeriod(from: number, to: number, previous?: PreviousRun): Promise<Period> {
  const messages = catchAllMessages(project, from, to);
  const counts = new Map<string, number>();
  for (const m of messages) counts.set(m.text, (counts.get(m.text) ?? 0) + 1);
  const questions = [...counts].map(([question, current]) => ({ question, current, previous: 0 }));
  const clustering = await clusterQuestions(questions, previous === undefined ? {} : { previous });
  const byText = new Map(questions.map((q, n) => [q.question, clustering.clusterOf[n]]));
  return { messages, clustering, clusterOf: messages.map((m) => byText.get(m.text)) };
}

/** Each cluster's majority topic (noise: '(noise)'). */
function majorityTopics(p: Period): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const [i, m] of p.messages.entries()) {
    const id = p.clusterOf[i];
    if (id === undefined) continue;
    const row = counts.get(id) ?? new Map<string, number>();
    row.set(m.topic ?? '(noise)', (row.get(m.topic ?? '(noise)') ?? 0) + 1);
    counts.set(id, row);
  }
  return new Map([...counts].map(([id, row]) => [id, [...row].sort((a, b) => b[1] - a[1])[0]![0]]));
}

/** A period as the next run reads it back: its topics and the topic of each (masked) text. */
function asPrevious(p: Period): PreviousRun {
  const topicOfText = new Map<string, string>();
  for (const [i, m] of p.messages.entries()) {
    const id = p.clusterOf[i];
    if (id !== undefined) topicOfText.set(maskQuestion(m.text), id);
  }
  return { topics: p.clustering.clusters, topicOfText };
}

const month = await clusterPeriod(TEST_NOW - 30 * DAY, TEST_NOW);
const topics = messagesByTopic(
  month.messages.map((m) => m.topic),
  month.clusterOf,
);

describe('clusters of unhandled questions against the emulator truth', () => {
  it('the month holds every hidden topic and noise', () => {
    expect(topics.size).toBe(12);
    expect(month.messages.filter((m) => m.topic === undefined).length).toBeGreaterThan(50);
  });

  it('clusters are pure: at least 90 % of the clustered messages share their cluster’s majority topic', () => {
    const clustered = month.messages.flatMap((_m, i) => (month.clusterOf[i] === undefined ? [] : [i]));
    const scores = scoreAgainstTruth(
      clustered.map((i) => month.messages[i]!.topic ?? '(noise)'),
      clustered.map((i) => month.clusterOf[i]),
    );
    expect(clustered.length).toBeGreaterThan(month.messages.length * 0.8);
    expect(scores.purity).toBeGreaterThanOrEqual(0.9);
  });

  it('each topic: at most 3 clusters of its own, together holding at least 90 % of its messages', () => {
    const owner = new Map<string, string>();
    for (const [topic, row] of topics)
      for (const [cluster, n] of row) {
        const size = month.clusterOf.filter((c) => c === cluster).length;
        if (cluster !== undefined && n / size > 0.5) owner.set(cluster, topic);
      }
    const rows = [...topics].map(([topic, row]) => {
      const own = [...row].filter(([c]) => c !== undefined && owner.get(c) === topic);
      const held = own.reduce((s, [, n]) => s + n, 0) / [...row.values()].reduce((s, n) => s + n, 0);
      return { topic, clusters: own.length, held: Math.round(held * 1000) / 1000 };
    });
    expect(rows.filter((r) => r.clusters < 1 || r.clusters > 3 || r.held < 0.9)).toEqual([]);
  });

  it('puts most one-off noise in "other", and counts "other" as the messages in no cluster', () => {
    const noise = month.messages.flatMap((m, i) => (m.topic === undefined ? [month.clusterOf[i]] : []));
    expect(noise.filter((c) => c === undefined).length / noise.length).toBeGreaterThanOrEqual(0.9);
    const unclustered = month.clusterOf.filter((c) => c === undefined).length;
    expect(month.clustering.other.current).toBe(unclustered);
    expect(month.clustering.clusters.reduce((n, c) => n + c.current, 0) + unclustered).toBe(
      month.messages.length,
    );
  });

  it('ids stay when the period moves by a week, the previous run given (≥ 90 % of topics and of clusters)', async () => {
    const earlier = await clusterPeriod(TEST_NOW - 37 * DAY, TEST_NOW - 7 * DAY);
    const later = await clusterPeriod(TEST_NOW - 30 * DAY, TEST_NOW, asPrevious(earlier));
    const before = majorityTopics(earlier);
    const after = majorityTopics(later);
    // a topic keeps its id: its largest cluster's id names a cluster of the same topic a week later (a topic
    // told in two clusters of near equal size may swap which is the larger: the ids stay with their clusters)
    const byTopic = messagesByTopic(
      earlier.messages.map((m) => m.topic),
      earlier.clusterOf,
    );
    const kept = [...byTopic].filter(([t, row]) => after.get(largestClusterOf(row)!) === t);
    expect(kept.length / byTopic.size).toBeGreaterThanOrEqual(0.9);
    // a cluster keeps its id: the same id a week later, with the same majority topic
    const clusters = [...before].filter(([id, t]) => after.get(id) === t);
    expect(clusters.length / before.size).toBeGreaterThanOrEqual(0.9);
  });

  it('labels and examples: masked, at most LABEL_MAX characters, sizes summing to the clustered messages', () => {
    const clustered = month.clusterOf.filter((c) => c !== undefined).length;
    expect(month.clustering.clusters.reduce((n, c) => n + c.current, 0)).toBe(clustered);
    for (const c of month.clustering.clusters) {
      expect(c.examples.length).toBeGreaterThan(0);
      expect(c.examples.length).toBeLessThanOrEqual(5);
      for (const text of [c.label, ...c.examples]) {
        expect(text).not.toMatch(/\d|@/);
        expect(Array.from(text).length).toBeLessThanOrEqual(LABEL_MAX);
      }
    }
  });

  it('is deterministic: the same questions in another order give the same clusters', async () => {
    const texts = [...new Set(catchAllMessages(project, TEST_NOW - 10 * DAY, TEST_NOW).map((m) => m.text))];
    const counts = texts.map((question) => ({ question, current: 1, previous: 0 }));
    const forward = await clusterQuestions(counts);
    const backward = await clusterQuestions([...counts].reverse());
    expect(backward.clusters).toEqual(forward.clusters);
    expect([...backward.clusterOf].reverse()).toEqual(forward.clusterOf);
  });
});

// kb eval's figures on hand-made outcomes whose answers are worked out here: hit@1, hit@5 and MRR over the
// questions with expected sources whose retrieval succeeded, the expected-text share over the answered
// questions with one, nearest-rank p50/p95 of the answers' latency, and how a chunk matches an expected source.
import { describe, expect, it } from 'vitest';
import {
  answerContainsAll,
  chunkMatches,
  computeKbEvalMetrics,
  findHitRank,
  nearestRankPercentile,
  type QuestionOutcome,
} from '../../../src/analysis/kb-eval/kb-eval-metrics.js';

const outcome = (o: Partial<QuestionOutcome>): QuestionOutcome => ({
  expectedSources: [],
  retrievalOk: true,
  hitRank: null,
  expectedAnswerContains: [],
  status: 'answered',
  answerContains: null,
  latencyMs: 100,
  ...o,
});

describe('kb eval metrics', () => {
  it('match a chunk by source id (digits), by name without case, or by docId', () => {
    const chunk = { rank: 1, sourceId: '12', sourceTitle: 'Returns.md', docId: 'doc-9' };
    expect(chunkMatches(chunk, '12')).toBe(true);
    expect(chunkMatches(chunk, '13')).toBe(false);
    expect(chunkMatches(chunk, 'returns.md')).toBe(true);
    expect(chunkMatches(chunk, 'doc-9')).toBe(true);
    expect(chunkMatches(chunk, 'faq.md')).toBe(false);
    const chunks = [
      { rank: 1, sourceId: '1', sourceTitle: 'a.md', docId: null },
      { rank: 2, sourceId: '2', sourceTitle: 'b.md', docId: null },
      { rank: 3, sourceId: '3', sourceTitle: 'c.md', docId: null },
    ];
    expect(findHitRank(chunks, ['c.md', '2'])).toBe(2);
    expect(findHitRank(chunks, ['z.md'])).toBeNull();
    expect(findHitRank(chunks, [])).toBeNull();
  });

  it('compare answers without case and spacing, every expected text', () => {
    expect(answerContainsAll('Delivery takes  3\nDAYS.', ['3 days'])).toBe(true);
    expect(answerContainsAll('Delivery takes 3 days', ['3 days', 'courier'])).toBe(false);
  });

  it('take the nearest-rank percentile', () => {
    expect(nearestRankPercentile([], 0.5)).toBeNull();
    expect(nearestRankPercentile([5], 0.95)).toBe(5);
    // 1..20: p50 is the 10th value, p95 the 19th
    const values = Array.from({ length: 20 }, (_, n) => 20 - n);
    expect(nearestRankPercentile(values, 0.5)).toBe(10);
    expect(nearestRankPercentile(values, 0.95)).toBe(19);
  });

  it('compute the run figures', () => {
    const m = computeKbEvalMetrics([
      outcome({ expectedSources: ['a'], hitRank: 1, latencyMs: 10 }),
      outcome({ expectedSources: ['a'], hitRank: 4, latencyMs: 20 }),
      outcome({ expectedSources: ['a'], hitRank: 7, latencyMs: 30 }),
      outcome({ expectedSources: ['a'], hitRank: null, latencyMs: 40 }),
      // retrieval failed: not in the base of hit@k
      outcome({ expectedSources: ['a'], retrievalOk: false, latencyMs: 50 }),
      // no expected sources
      outcome({ expectedAnswerContains: ['x'], answerContains: true, latencyMs: 60 }),
      outcome({ expectedAnswerContains: ['x'], answerContains: false, latencyMs: 70 }),
      // failed generation: a failure, no latency, not in the base of the expected-text share
      outcome({ expectedAnswerContains: ['x'], status: 'error', answerContains: null, latencyMs: null }),
    ]);
    expect(m).toEqual({
      questions: 8,
      answered: 7,
      failures: 1,
      retrievalFailures: 1,
      withExpectedSources: 4,
      hitAt1: 1 / 4,
      hitAt5: 2 / 4,
      mrr: (1 + 1 / 4 + 1 / 7 + 0) / 4,
      withExpectedAnswer: 2,
      answerContainsRate: 1 / 2,
      latencyP50Ms: 40,
      latencyP95Ms: 70,
    });
  });

  it('give null figures when nothing is there to measure', () => {
    const m = computeKbEvalMetrics([outcome({ status: 'failed', latencyMs: null })]);
    expect(m.hitAt1).toBeNull();
    expect(m.mrr).toBeNull();
    expect(m.answerContainsRate).toBeNull();
    expect(m.latencyP50Ms).toBeNull();
    expect(m.failures).toBe(1);
  });
});

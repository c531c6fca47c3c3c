// The figures of a `kb eval` run, from its questions' outcomes: retrieval quality over the expected sources
// (hit@1, hit@5, MRR), answer quality (the share of answers containing the expected text), failures and the
// generation latency (p50, p95 by nearest rank). Pure functions: the runner stores what they return, the
// report reads it back, and the tests compute the same figures from the emulator's truth on their own.

/** A retrieved chunk as the evaluation sees it: its rank (from 1, the service's order) and its source. */
export interface RankedChunk {
  rank: number;
  sourceId: string | null;
  sourceTitle: string | null;
  docId: string | null;
}

/** What one question came to, as far as the figures go. */
export interface QuestionOutcome {
  expectedSources: readonly string[];
  /** False when retrieval failed: the question then counts in `retrievalFailures`, not in hit@k or MRR. */
  retrievalOk: boolean;
  /** The rank of the first chunk from an expected source; null: none (or no expectation). */
  hitRank: number | null;
  expectedAnswerContains: readonly string[];
  /** `answered`: the generation finished with an answer; anything else is a failure. */
  status: 'answered' | 'failed' | 'error';
  /** Whether the answer holds every expected text; null when nothing is expected or there is no answer. */
  answerContains: boolean | null;
  /** From submitting the generation to its final record (ms); null when it never finished. */
  latencyMs: number | null;
}

export interface KbEvalMetrics {
  questions: number;
  answered: number;
  /** Questions whose generation did not end in an answer (failed, error, cut stream, refused key). */
  failures: number;
  /** Questions whose retrieval request failed. */
  retrievalFailures: number;
  /** Questions with expected sources whose retrieval succeeded: the base of hit@1, hit@5 and MRR. */
  withExpectedSources: number;
  hitAt1: number | null;
  hitAt5: number | null;
  mrr: number | null;
  /** Answered questions with an expected text: the base of answerContainsRate. */
  withExpectedAnswer: number;
  answerContainsRate: number | null;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
}

/** `text` lower-cased with runs of white space as one space: how answers and expectations are compared. */
export function normaliseText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Whether `answer` contains every expected text (case and spacing ignored). */
export function answerContainsAll(answer: string, expected: readonly string[]): boolean {
  const haystack = normaliseText(answer);
  return expected.every((e) => haystack.includes(normaliseText(e)));
}

/**
 * Whether a chunk comes from an expected source: an expectation of digits is a source id; any other is a
 * source's name (its title), compared without case; a docId equal to the expectation also matches.
 */
export function chunkMatches(chunk: RankedChunk, expected: string): boolean {
  const want = expected.trim();
  if (/^\d+$/.test(want)) return chunk.sourceId === want;
  const lower = want.toLowerCase();
  return chunk.sourceTitle?.toLowerCase() === lower || chunk.docId?.toLowerCase() === lower;
}

/** The rank of the first chunk from any expected source; null when none is (or nothing is expected). */
export function findHitRank(chunks: readonly RankedChunk[], expected: readonly string[]): number | null {
  if (expected.length === 0) return null;
  let best: number | null = null;
  for (const chunk of chunks)
    if (expected.some((e) => chunkMatches(chunk, e)) && (best === null || chunk.rank < best))
      best = chunk.rank;
  return best;
}

/** The nearest-rank percentile (p in 0..1) of the values: the smallest value with at least p of them at or below. */
export function nearestRankPercentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[index]!;
}

export function computeKbEvalMetrics(outcomes: readonly QuestionOutcome[]): KbEvalMetrics {
  const ranked = outcomes.filter((o) => o.retrievalOk && o.expectedSources.length > 0);
  const rate = (n: number, of: number) => (of === 0 ? null : n / of);
  const withAnswer = outcomes.filter(
    (o) => o.status === 'answered' && o.expectedAnswerContains.length > 0 && o.answerContains !== null,
  );
  const latencies = outcomes.flatMap((o) =>
    o.status === 'answered' && o.latencyMs !== null ? [o.latencyMs] : [],
  );
  const answered = outcomes.filter((o) => o.status === 'answered').length;
  return {
    questions: outcomes.length,
    answered,
    failures: outcomes.length - answered,
    retrievalFailures: outcomes.filter((o) => !o.retrievalOk).length,
    withExpectedSources: ranked.length,
    hitAt1: rate(ranked.filter((o) => o.hitRank === 1).length, ranked.length),
    hitAt5: rate(ranked.filter((o) => o.hitRank !== null && o.hitRank <= 5).length, ranked.length),
    mrr: rate(
      ranked.reduce((sum, o) => sum + (o.hitRank === null ? 0 : 1 / o.hitRank), 0),
      ranked.length,
    ),
    withExpectedAnswer: withAnswer.length,
    answerContainsRate: rate(withAnswer.filter((o) => o.answerContains === true).length, withAnswer.length),
    latencyP50Ms: nearestRankPercentile(latencies, 0.5),
    latencyP95Ms: nearestRankPercentile(latencies, 0.95),
  };
}

// Every distinct text (clustered or not, of the period or only of the previous one) to its nearest topic
// centre by cosine, or "other" when that cosine is below the threshold or the text has no known feature. In
// batches, with no matrix of all texts, so memory stays flat for a million messages; each text's terms are
// summed into its topic's term scores (weighted by the period's messages): the topic's centre in word space.
import type { DistinctTexts } from './distinct-texts.js';
import { emptyTextRow, fillTextRow, type TextRow, type Vectoriser } from './fit-vectoriser.js';
import type { VectorSpace } from './text-embedder.js';

const BATCH = 1024;

export interface Assignment {
  /** Each distinct text's topic (−1: other). */
  topicOf: Int32Array;
  /** Each distinct text's cosine to its nearest centre. */
  similarity: Float32Array;
  /** k × vectoriser.wordColumns: Σ over a topic's texts of term weight × the period's messages. */
  termScore: Float64Array;
  /** k × vectoriser.wordColumns: the period's messages of the topic whose text has the term. */
  termMessages: Float64Array;
}

/** The nearest of `k` centres (k × space.dims) for every text of `d`. */
export async function assignTexts(
  d: DistinctTexts,
  vectoriser: Vectoriser,
  space: VectorSpace,
  centres: Float32Array,
  k: number,
  otherSimilarity: number,
): Promise<Assignment> {
  const n = d.texts.length;
  const wc = vectoriser.wordColumns;
  const out: Assignment = {
    topicOf: new Int32Array(n).fill(-1),
    similarity: new Float32Array(n),
    termScore: new Float64Array(Math.max(k, 1) * wc),
    termMessages: new Float64Array(Math.max(k, 1) * wc),
  };
  if (k === 0) return out;
  const pool = Array.from({ length: BATCH }, emptyTextRow);
  for (let from = 0; from < n; from += BATCH) {
    const to = Math.min(n, from + BATCH);
    const texts = d.texts.slice(from, to);
    const rows = texts.map((t, j) => (fillTextRow(vectoriser, t, pool[j]!) ? pool[j]! : undefined));
    const vectors = await space.vectors(texts, rows);
    for (let j = 0; j < texts.length; j++) {
      const row = rows[j];
      if (row === undefined) continue;
      const [best, sim] = nearest(vectors, j * space.dims, centres, k, space.dims);
      out.similarity[from + j] = sim;
      if (sim < otherSimilarity) continue;
      out.topicOf[from + j] = best;
      addTerms(out, row, best, wc, d.current[from + j]!);
    }
  }
  return out;
}

/** The nearest centre of the vector at `at` and its cosine (ties to the lower centre). */
function nearest(v: Float32Array, at: number, centres: Float32Array, k: number, dims: number) {
  let best = 0;
  let bestSim = Number.NEGATIVE_INFINITY;
  for (let c = 0; c < k; c++) {
    const co = c * dims;
    let s0 = 0;
    let s1 = 0;
    let t = 0;
    for (; t + 1 < dims; t += 2) {
      s0 += v[at + t]! * centres[co + t]!;
      s1 += v[at + t + 1]! * centres[co + t + 1]!;
    }
    if (t < dims) s0 += v[at + t]! * centres[co + t]!;
    if (s0 + s1 > bestSim) [best, bestSim] = [c, s0 + s1];
  }
  return [best, bestSim] as const;
}

function addTerms(out: Assignment, row: TextRow, topic: number, wc: number, messages: number): void {
  if (messages === 0) return;
  for (const [j, c] of row.wordCols.entries()) {
    out.termScore[topic * wc + c]! += row.wordVals[j]! * messages;
    out.termMessages[topic * wc + c]! += messages;
  }
}

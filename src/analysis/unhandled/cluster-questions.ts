// Groups a period's unhandled questions into topics (docs/unhandled.md#how-topics-are-formed): the distinct
// masked texts, a sample of them vectorised (word and character n-gram TF-IDF, then LSA, or an embeddings
// endpoint's vectors), the k-nearest-neighbour graph's communities (Louvain: the data choose how many), every
// text assigned to its nearest topic or "other", and the topics named (ids carried over from the previous
// run). Deterministic: the same questions in any order, with the same previous run, give the same topics.
import { assignTexts } from './assign-texts.js';
import { CLUSTER_PARAMS, type ClusterParams } from './cluster-params.js';
import { type DistinctTexts, distinctTexts, type QuestionCount, sampleTexts } from './distinct-texts.js';
import { fitLsa } from './fit-lsa.js';
import {
  emptyTextRow,
  fillTextRow,
  fitVectoriser,
  sparseOfRows,
  type TextRow,
  type Vectoriser,
} from './fit-vectoriser.js';
import { type FormedTopics, formTopics } from './form-topics.js';
import { nameTopics, type PreviousRun, type QuestionCluster } from './name-topics.js';
import { stickyStart } from './sticky-start.js';
import { embedderSpace, lsaSpace, type TextEmbedder, type VectorSpace } from './text-embedder.js';

export type { QuestionCount } from './distinct-texts.js';
export type { PreviousRun, QuestionCluster } from './name-topics.js';

export interface ClusterOptions {
  /** The smallest topic in the period's messages (default: 0.05 % of them, at least 3). */
  minMessages?: number;
  /** The previous stored run of the same selection: its ids carry over, its topics start the graph. */
  previous?: PreviousRun;
  /** Texts of the previous run start in their previous topic (default true when `previous` is given). */
  sticky?: boolean;
  /** Vectors from an embeddings endpoint instead of the LSA. */
  embedder?: TextEmbedder;
  /** Overrides of CLUSTER_PARAMS (the benchmark's and the tests' experiments). */
  params?: Partial<ClusterParams>;
}

/** The topics of distinct texts (clusterTexts). */
export interface TextClustering {
  /** Biggest first (ties by their terms). */
  clusters: QuestionCluster[];
  /** The cluster id of each distinct text (index into its texts); undefined: other. */
  idOfText: (string | undefined)[];
  /** What joined no topic: messages of the period and of the previous one, distinct texts of the period. */
  other: { current: number; previous: number; texts: number };
  /** Where the vectors came from: `lsa`, or the embedder's name. */
  vectors: string;
  /** Diagnostics: distinct texts, those clustered, micro-clusters, communities, topics, vocabulary. */
  stats: {
    distinct: number;
    sample: number;
    micro: number;
    communities: number;
    topics: number;
    vocabulary: number;
  };
}

/** The topics of questions, and the cluster of each. */
export interface Clustering extends TextClustering {
  /** The cluster id of each input question (index as given); undefined: other. */
  clusterOf: (string | undefined)[];
}

/** The topics of `questions`. */
export async function clusterQuestions(
  questions: readonly QuestionCount[],
  options: ClusterOptions = {},
): Promise<Clustering> {
  const d = distinctTexts(questions);
  const clustering = await clusterTexts(d, options);
  return { ...clustering, clusterOf: Array.from(d.textOf, (i) => clustering.idOfText[i]) };
}

/** The topics of a period's distinct texts (collected by distinct-texts.ts). */
export async function clusterTexts(d: DistinctTexts, options: ClusterOptions = {}): Promise<TextClustering> {
  const p: ClusterParams = { ...CLUSTER_PARAMS, ...options.params };
  const sample = sampleTexts(d, p.sampleSize, p.seed);
  const texts = sample.map((i) => d.texts[i]!);
  const vectoriser = fitVectoriser(texts);
  const rows = texts.map((t) => {
    const row = emptyTextRow();
    return fillTextRow(vectoriser, t, row) ? row : undefined;
  });
  if (!rows.some((r) => r !== undefined))
    return nothingClustered(d, options.embedder?.name ?? 'lsa', vectoriser);
  const space = await spaceOf(vectoriser, rows, texts, p, options.embedder);
  const formed = await formSampleTopics(d, sample, rows, space, p, options);
  const assignment = await assignTexts(d, vectoriser, space, formed.centres, formed.k, p.otherSimilarity);
  const named = nameTopics(d, assignment, vectoriser, formed.k, p.minTermCoverage, options.previous);
  const other = { current: 0, previous: 0, texts: 0 };
  for (let i = 0; i < d.texts.length; i++) {
    if (named.idOfTopic.has(assignment.topicOf[i]!)) continue;
    other.current += d.current[i]!;
    other.previous += d.previous[i]!;
    if (d.current[i]! > 0) other.texts++;
  }
  return {
    clusters: named.clusters,
    idOfText: Array.from(assignment.topicOf, (t) => named.idOfTopic.get(t)),
    other,
    vectors: space.name,
    stats: {
      distinct: d.texts.length,
      sample: sample.length,
      micro: formed.micro,
      communities: formed.communities,
      topics: named.clusters.length,
      vocabulary: vectoriser.columns,
    },
  };
}

async function spaceOf(
  vectoriser: Vectoriser,
  rows: readonly (TextRow | undefined)[],
  texts: readonly string[],
  p: ClusterParams,
  embedder: TextEmbedder | undefined,
): Promise<VectorSpace> {
  if (embedder !== undefined) return embedderSpace(embedder, texts);
  return lsaSpace(fitLsa(sparseOfRows(vectoriser, rows), p.dims, p.seed));
}

/** The sample's vectors, weights and sticky start, and the topics formed from them. */
async function formSampleTopics(
  d: DistinctTexts,
  sample: readonly number[],
  rows: readonly (TextRow | undefined)[],
  space: VectorSpace,
  p: ClusterParams,
  options: ClusterOptions,
): Promise<FormedTopics> {
  const x = await space.vectors(
    sample.map((i) => d.texts[i]!),
    rows,
  );
  const w = Float64Array.from(sample, (i, row) => (rows[row] === undefined ? 0 : d.current[i]!));
  const total = d.current.reduce((a, b) => a + b, 0);
  const sampled = sample.reduce((a, i) => a + d.current[i]!, 0);
  const minMessages = options.minMessages ?? Math.max(p.minMessages, p.minShare * total);
  const sticky = options.sticky ?? true;
  const start =
    sticky && options.previous ? stickyStart(sample, d.texts, options.previous.topicOfText) : undefined;
  return formTopics({ x, n: sample.length, d: space.dims, w }, p, minMessages, total / sampled, start);
}

function nothingClustered(d: DistinctTexts, vectors: string, v: Vectoriser): TextClustering {
  let texts = 0;
  for (const c of d.current) if (c > 0) texts++;
  return {
    clusters: [],
    idOfText: d.texts.map(() => undefined),
    other: {
      current: d.current.reduce((a, b) => a + b, 0),
      previous: d.previous.reduce((a, b) => a + b, 0),
      texts,
    },
    vectors,
    stats: {
      distinct: d.texts.length,
      sample: 0,
      micro: 0,
      communities: 0,
      topics: 0,
      vocabulary: v.columns,
    },
  };
}

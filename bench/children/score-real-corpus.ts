// The unhandled-real step's child: one clustering of a labelled corpus (test/fixtures/unhandled/) judged by its
// true intents. `product`: clusterQuestions, the method `reporter-etl unhandled` runs, never told the number
// of intents. `baseline`: TF-IDF over words + k-means told the true k (bench/tfidf-kmeans-baseline.ts).
// "Other" is one cluster; the corpus's `oos` label is no intent. Usage: score-real-corpus.js
// product|baseline CORPUS.tsv.gz; prints JSON (the scores, and the product's cluster ids).
import { clusterQuestions } from '../../src/analysis/unhandled/cluster-questions.js';
import { readUnhandledCorpus } from '../../src/emulator/unhandled-corpus.js';
import { OTHER, scoreClustering } from '../cluster-scores.js';
import { baselineClusters } from '../tfidf-kmeans-baseline.js';

const NOT_INTENTS = new Set(['oos']);
const [method, path] = process.argv.slice(2);
if (!path || (method !== 'product' && method !== 'baseline')) {
  process.stderr.write('usage: score-real-corpus.js product|baseline CORPUS.tsv.gz\n');
  process.exit(2);
}

const corpus = readUnhandledCorpus(path);
const started = performance.now();
let predicted: string[];
let ids: string[] = [];
let longestLabel = 0;
if (method === 'product') {
  const clustering = await clusterQuestions(
    corpus.texts.map((question) => ({ question, current: 1, previous: 0 })),
  );
  predicted = clustering.clusterOf.map((c) => c ?? OTHER);
  ids = clustering.clusters.map((c) => c.id);
  for (const c of clustering.clusters)
    for (const text of [c.label, ...c.examples])
      longestLabel = Math.max(longestLabel, Array.from(text).length);
} else {
  const k = new Set(corpus.intents).size;
  predicted = Array.from(baselineClusters(corpus.texts, k), String);
}
const seconds = (performance.now() - started) / 1000;
const scores = scoreClustering(corpus.intents, predicted, NOT_INTENTS);
const intents = new Set(corpus.intents).size;
process.stdout.write(
  `${JSON.stringify({ questions: corpus.texts.length, intents, seconds, longestLabel, ...scores, ids })}\n`,
);

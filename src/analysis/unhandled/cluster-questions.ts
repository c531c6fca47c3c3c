// Groups unhandled questions into topics. Each distinct question text is masked (maskQuestion) and reduced to
// its signature (signatureTerms); equal signatures are one entry with their counts; similar signatures are
// joined (groupSimilar); groups whose core terms (the most frequent terms, up to the steepest drop in their
// counts) are equal are the same topic and merge. A topic's id is a hash of those core terms, so
// the same topic gets the same id from another period's messages; its label is its most central phrasing.
import { createHash } from 'node:crypto';
import { maskQuestion, signatureTerms } from './normalise-question.js';
import { groupSimilar, jaccard, trigramSet } from './similar-signatures.js';

/** One distinct question text of the period and of the previous one, with its message counts. */
export interface QuestionCount {
  question: string;
  /** Messages in the period. */
  current: number;
  /** Messages in the previous period of the same length. */
  previous: number;
}

export interface ClusterOptions {
  /** Trigram Jaccard similarity at which two signatures join (0.3 by default). */
  threshold?: number;
  /**
   * Clusters with fewer messages in the period are left out: their messages stay unclustered. By default
   * 1 in 10,000 of the period's messages, at least 3 (in a million messages, one-off noise meets itself).
   */
  minMessages?: number;
}

export interface QuestionCluster {
  id: string;
  /** The most central phrasing, masked. */
  label: string;
  /** Up to 5 phrasings, masked, the most frequent first. */
  examples: string[];
  /** The core terms the id is made of. */
  terms: string[];
  current: number;
  previous: number;
}

export interface Clustering {
  /** Biggest first (ties by id). */
  clusters: QuestionCluster[];
  /** The cluster id of each input question (index as given), undefined where unclustered. */
  clusterOf: (string | undefined)[];
}

interface Signature {
  terms: string[];
  current: number;
  previous: number;
  phrasings: Map<string, number>;
}

const MAX_EXAMPLES = 5;
/** The most terms a cluster's id is made of. */
const MAX_CORE_TERMS = 5;
/** The label is chosen among the group's most frequent signatures only (the centre is a quadratic search). */
const LABEL_CANDIDATES = 40;

/** The clusters of `questions`, deterministic for the same input in any order. */
export function clusterQuestions(
  questions: readonly QuestionCount[],
  options: ClusterOptions = {},
): Clustering {
  const { signatures, signatureOf } = collectSignatures(questions);
  const groups = groupSimilar(
    signatures.map((s) => trigramSet(s.terms)),
    options.threshold ?? 0.3,
  );
  const byRoot = new Map<number, number[]>();
  for (let index = 0; index < signatures.length; index++) {
    const root = groups[index]!;
    const members = byRoot.get(root);
    if (members === undefined) byRoot.set(root, [index]);
    else members.push(index);
  }
  const byId = new Map<string, number[]>();
  for (const members of byRoot.values()) {
    const id = clusterId(coreTerms(members.map((m) => signatures[m]!)));
    const merged = byId.get(id);
    if (merged === undefined) byId.set(id, members);
    else merged.push(...members);
  }
  const total = questions.reduce((n, q) => n + q.current, 0);
  return summarise(
    signatures,
    signatureOf,
    byId,
    options.minMessages ?? Math.max(3, Math.ceil(total / 10_000)),
  );
}

/** Distinct signatures, sorted by their terms (so input order does not matter), and each question's one. */
function collectSignatures(questions: readonly QuestionCount[]) {
  const byKey = new Map<string, Signature>();
  const keys: string[] = [];
  for (const q of questions) {
    const masked = maskQuestion(q.question);
    const terms = signatureTerms(masked);
    const key = terms.join(' ');
    keys.push(key);
    if (terms.length === 0) continue;
    let s = byKey.get(key);
    if (s === undefined) byKey.set(key, (s = { terms, current: 0, previous: 0, phrasings: new Map() }));
    s.current += q.current;
    s.previous += q.previous;
    s.phrasings.set(masked, (s.phrasings.get(masked) ?? 0) + q.current + q.previous);
  }
  const ordered = [...byKey.keys()].sort();
  const indexOf = new Map(ordered.map((key, index) => [key, index]));
  return {
    signatures: ordered.map((key) => byKey.get(key)!),
    signatureOf: keys.map((key) => indexOf.get(key)),
  };
}

/**
 * The terms before the steepest drop in message counts among the group's top terms (at most MAX_CORE_TERMS),
 * sorted: a cut where counts fall most, so another sample of the same topic cuts at the same place.
 */
function coreTerms(members: readonly Signature[]): string[] {
  const counts = new Map<string, number>();
  for (const s of members)
    for (const t of s.terms) counts.set(t, (counts.get(t) ?? 0) + s.current + s.previous);
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  let cut = 1;
  let steepest = Number.POSITIVE_INFINITY;
  for (let j = 1; j < Math.min(ranked.length, MAX_CORE_TERMS + 1); j++) {
    const ratio = ranked[j]![1] / ranked[j - 1]![1];
    if (ratio < steepest) [cut, steepest] = [j, ratio];
  }
  if (ranked.length <= MAX_CORE_TERMS && steepest > 0.8) cut = ranked.length;
  return ranked
    .slice(0, cut)
    .map(([t]) => t)
    .sort();
}

function clusterId(terms: readonly string[]): string {
  return `u-${createHash('sha256').update(terms.join(' ')).digest('hex').slice(0, 12)}`;
}

function summarise(
  signatures: readonly Signature[],
  signatureOf: readonly (number | undefined)[],
  byId: ReadonlyMap<string, number[]>,
  minMessages: number,
): Clustering {
  const clusters: QuestionCluster[] = [];
  const idOfSignature = new Map<number, string>();
  for (const [id, members] of byId) {
    const group = members.map((m) => signatures[m]!);
    const current = group.reduce((n, s) => n + s.current, 0);
    if (current < minMessages) continue;
    for (const m of members) idOfSignature.set(m, id);
    clusters.push({
      id,
      label: centralPhrasing(group),
      examples: topPhrasings(group),
      terms: coreTerms(group),
      current,
      previous: group.reduce((n, s) => n + s.previous, 0),
    });
  }
  clusters.sort((a, b) => b.current - a.current || (a.id < b.id ? -1 : 1));
  return {
    clusters,
    clusterOf: signatureOf.map((s) => (s === undefined ? undefined : idOfSignature.get(s))),
  };
}

/** The most frequent phrasing of the signature most similar (weighted by messages) to the group's others. */
function centralPhrasing(group: readonly Signature[]): string {
  const candidates = [...group].sort(byMessages).slice(0, LABEL_CANDIDATES);
  const sets = candidates.map((s) => trigramSet(s.terms));
  let best = 0;
  let bestScore = -1;
  for (let i = 0; i < candidates.length; i++) {
    let score = 0;
    for (let j = 0; j < candidates.length; j++)
      score += jaccard(sets[i]!, sets[j]!) * (candidates[j]!.current + candidates[j]!.previous);
    if (score > bestScore) [best, bestScore] = [i, score];
  }
  return mostFrequent(candidates[best]!.phrasings)[0]!;
}

function topPhrasings(group: readonly Signature[]): string[] {
  const all = new Map<string, number>();
  for (const s of group) for (const [text, n] of s.phrasings) all.set(text, (all.get(text) ?? 0) + n);
  return mostFrequent(all).slice(0, MAX_EXAMPLES);
}

function mostFrequent(counts: ReadonlyMap<string, number>): string[] {
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([text]) => text);
}

function byMessages(a: Signature, b: Signature): number {
  const diff = b.current + b.previous - (a.current + a.previous);
  return diff !== 0 ? diff : a.terms.join(' ') < b.terms.join(' ') ? -1 : 1;
}

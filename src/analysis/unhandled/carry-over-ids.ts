// Ids carried over from the previous stored run, so a topic keeps its id when the period moves: a new topic
// takes the id of the previous topic that holds at least CARRY_OVER of its messages by identical text, or
// else whose profile (centre in word space) has a cosine of at least CARRY_OVER with its own; pairs best
// first, one-to-one. The others get fresh ids (topic-names.ts), never an id the previous run gave a topic.
import { assignIds, type NamedId } from './topic-names.js';

/** Share of shared texts, else profile cosine, at which a topic takes a previous topic's id. */
export const CARRY_OVER = 0.3;

/** A topic's centre in word space: (term, summed TF-IDF weight, messages holding it), heaviest first. */
export type TopicProfile = readonly (readonly [term: string, weight: number, messages: number])[];

/** A topic as the previous run stored it. */
export interface PreviousTopic {
  id: string;
  /** The terms its id is made of. */
  terms: readonly string[];
  profile: TopicProfile;
}

/** The cosine of two profiles (term → weight). */
export function profileCosine(a: TopicProfile, b: TopicProfile): number {
  const m = new Map<string, number>();
  for (const [t, w] of a) m.set(t, w);
  let dot = 0;
  for (const [t, w] of b) dot += w * (m.get(t) ?? 0);
  let na = 0;
  let nb = 0;
  for (const [, w] of a) na += w * w;
  for (const [, w] of b) nb += w * w;
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/** What the topics of this run share with the previous run's by identical text, in this period's messages. */
export interface TextOverlap {
  /** Messages of topic i whose text the previous run put in previous topic j. */
  shared(i: number, j: number): number;
  /** Messages of topic i. */
  size(i: number): number;
  /** Messages of this period whose text the previous run put in previous topic j. */
  previousSize(j: number): number;
}

/**
 * Ids of the topics (biggest first, with their ranked terms and profiles) given the previous run's topics.
 * A pair sharing at least CARRY_OVER of the new topic's messages by text ranks above any profile match, and
 * among those the pair sharing the most (Jaccard of their messages): where a previous topic split, its id
 * goes to the part holding most of it.
 */
export function carryOverIds(
  topics: readonly { ranked: readonly string[]; profile: TopicProfile }[],
  previous: readonly PreviousTopic[],
  overlap?: TextOverlap,
): NamedId[] {
  const pairs: [score: number, i: number, j: number][] = [];
  for (const [i, t] of topics.entries())
    for (const [j, p] of previous.entries()) {
      const shared = overlap?.shared(i, j) ?? 0;
      const s =
        overlap !== undefined && shared >= CARRY_OVER * overlap.size(i)
          ? 1 + shared / (overlap.size(i) + overlap.previousSize(j) - shared)
          : profileCosine(t.profile, p.profile);
      if (s >= CARRY_OVER) pairs.push([s, i, j]);
    }
  pairs.sort((a, b) => b[0] - a[0] || a[1] - b[1] || a[2] - b[2]);
  const carried = new Map<number, PreviousTopic>();
  const usedPrevious = new Set<number>();
  for (const [, i, j] of pairs) {
    if (carried.has(i) || usedPrevious.has(j)) continue;
    carried.set(i, previous[j]!);
    usedPrevious.add(j);
  }
  // Every previous id is reserved: an id that named a topic last time never names another one now.
  const fresh = assignIds(
    topics.map((t) => t.ranked),
    undefined,
    new Set(previous.map((p) => p.id)),
  );
  return topics.map((_, i) => {
    const p = carried.get(i);
    return p === undefined ? fresh[i]! : { id: p.id, terms: [...p.terms] };
  });
}

// The topics as people and the next run see them, biggest first: their messages (this period and the
// previous one), the top terms of their centre in word space, their profile (what the next run's carry-over
// compares), ids (fresh, or carried over from the previous run), a label and examples of at most LABEL_MAX
// characters. A topic whose top term is in too few of its messages has no common word: one-off noise, not a
// topic, so its texts become "other" here.
import type { Assignment } from './assign-texts.js';
import { carryOverIds, type PreviousTopic, type TopicProfile } from './carry-over-ids.js';
import type { DistinctTexts } from './distinct-texts.js';
import type { Vectoriser } from './fit-vectoriser.js';
import { centralLabel, shorten } from './topic-label.js';
import { assignIds, type NamedId, topTerms } from './topic-names.js';

const MAX_EXAMPLES = 5;
/** Terms in a profile. */
const PROFILE_TERMS = 40;
/** Top terms kept with a topic (shown in diagnostics; the id takes its first ID_TERMS). */
const TOP_TERMS = 8;

/** The previous stored run, for carry-over and the sticky start. */
export interface PreviousRun {
  topics: readonly PreviousTopic[];
  /** Masked text → the id of its topic in the previous run. */
  topicOfText: ReadonlyMap<string, string>;
}

export interface QuestionCluster {
  id: string;
  /** The most central short phrasing, masked. */
  label: string;
  /** Up to 5 phrasings, masked, the most frequent first, each at most LABEL_MAX characters. */
  examples: string[];
  /** The stems the id is made of. */
  terms: string[];
  /** The centre in word space (what the next run compares). */
  profile: [term: string, weight: number, messages: number][];
  /** Messages in the period and in the previous one; distinct texts of the period. */
  current: number;
  previous: number;
  texts: number;
}

interface Candidate {
  topic: number;
  members: number[];
  current: number;
  ranked: string[];
}

/** The named topics, biggest first, and each topic index's id (topics dissolved into other: none). */
export function nameTopics(
  d: DistinctTexts,
  a: Assignment,
  v: Vectoriser,
  k: number,
  minTermCoverage: number,
  previous?: PreviousRun,
): { clusters: QuestionCluster[]; idOfTopic: Map<number, string> } {
  const candidates = candidatesOf(d, a, v, k).filter((c) => {
    const top = c.ranked.length === 0 ? undefined : v.wordVocabulary.get(c.ranked[0]!);
    const ok =
      top !== undefined && a.termMessages[c.topic * v.wordColumns + top]! >= minTermCoverage * c.current;
    if (!ok) for (const i of c.members) a.topicOf[i] = -1;
    return ok;
  });
  candidates.sort((x, y) => y.current - x.current || (x.ranked.join(' ') < y.ranked.join(' ') ? -1 : 1));
  const profiles = candidates.map((c) => profileOf(a, v, c.topic));
  const ids = idsOf(candidates, profiles, d, previous);
  const clusters = candidates.map((c, r) => ({
    id: ids[r]!.id,
    label: centralLabel(asked(c.members, d), d.texts, (i) => a.similarity[i]!, d.current),
    examples: examplesOf(asked(c.members, d), d),
    terms: ids[r]!.terms,
    profile: profiles[r]!,
    current: c.current,
    previous: c.members.reduce((s, i) => s + d.previous[i]!, 0),
    texts: asked(c.members, d).length,
  }));
  return { clusters, idOfTopic: new Map(candidates.map((c, r) => [c.topic, ids[r]!.id])) };
}

/** Each topic with members asked in the period: its members, messages and ranked terms. */
function candidatesOf(d: DistinctTexts, a: Assignment, v: Vectoriser, k: number): Candidate[] {
  const members: number[][] = Array.from({ length: k }, () => []);
  for (let i = 0; i < d.texts.length; i++) if (a.topicOf[i]! >= 0) members[a.topicOf[i]!]!.push(i);
  return members
    .map((ms, topic) => ({ topic, members: ms, current: ms.reduce((s, i) => s + d.current[i]!, 0) }))
    .filter((c) => c.current > 0)
    .map((c) => ({ ...c, ranked: topTerms(a.termScore, c.topic, v.terms, TOP_TERMS) }));
}

function profileOf(a: Assignment, v: Vectoriser, topic: number): [string, number, number][] {
  return topTerms(a.termScore, topic, v.terms, PROFILE_TERMS).map((term) => {
    const col = v.wordVocabulary.get(term)!;
    const at = topic * v.wordColumns + col;
    return [term, a.termScore[at]!, a.termMessages[at]!];
  });
}

function idsOf(
  candidates: readonly Candidate[],
  profiles: readonly TopicProfile[],
  d: DistinctTexts,
  previous: PreviousRun | undefined,
): NamedId[] {
  if (previous === undefined || previous.topics.length === 0)
    return assignIds(candidates.map((c) => c.ranked));
  const indexOfId = new Map(previous.topics.map((t, j) => [t.id, j]));
  const previousOf = (i: number) => indexOfId.get(previous.topicOfText.get(d.texts[i]!) ?? '');
  const previousSize = new Float64Array(previous.topics.length);
  for (let i = 0; i < d.texts.length; i++) {
    const j = previousOf(i);
    if (j !== undefined) previousSize[j]! += d.current[i]!;
  }
  const shared = candidates.map((c) => {
    const m = new Map<number, number>();
    for (const i of c.members) {
      const j = previousOf(i);
      if (j !== undefined) m.set(j, (m.get(j) ?? 0) + d.current[i]!);
    }
    return m;
  });
  return carryOverIds(
    candidates.map((c, r) => ({ ranked: c.ranked, profile: profiles[r]! })),
    previous.topics,
    {
      shared: (i, j) => shared[i]!.get(j) ?? 0,
      size: (i) => candidates[i]!.current,
      previousSize: (j) => previousSize[j]!,
    },
  );
}

/** The members asked in the period (a topic also holds texts asked only in the previous one). */
function asked(members: readonly number[], d: DistinctTexts): number[] {
  return members.filter((i) => d.current[i]! > 0);
}

/** The most frequent phrasings, each at most LABEL_MAX characters. */
function examplesOf(members: readonly number[], d: DistinctTexts): string[] {
  return [...members]
    .sort((x, y) => d.current[y]! - d.current[x]! || (d.texts[x]! < d.texts[y]! ? -1 : 1))
    .slice(0, MAX_EXAMPLES)
    .map((i) => shorten(d.texts[i]!));
}

// Ground truth of the unhandled questions: for every catch-all message of a time window, the hidden topic it
// came from (or its corpus intent when the emulator serves a corpus; none: one-off noise, or a live Chat API
// message), straight from the generator, never from the code under test. What the clustering of the
// unhandled questions is measured against.
import { KB_COVERED_TOPICS } from './kb/kb-topic-answers.js';
import type { ProjectData } from './project-data.js';
import { FALLBACK_CLASS } from './vocabulary.js';

export interface UnhandledTruth {
  /** question_id → topic id (or corpus intent), for each catch-all message of the window that came from one. */
  topicOf: Map<string, string>;
  /** Catch-all messages of the window that came from no topic (noise). */
  noise: string[];
  /** Messages per topic. */
  topics: Record<string, number>;
  /** The topics the emulated knowledge base answers (a FAQ source each); the others it cannot answer. */
  coveredTopics: readonly string[];
}

/** The truth of the catch-all messages with a timestamp in [from, to), as of `now`. */
export function unhandledTruth(
  p: ProjectData,
  window: { from: number; to: number; now: number },
): UnhandledTruth {
  const sk = p.skeleton;
  const truth: UnhandledTruth = {
    topicOf: new Map(),
    noise: [],
    topics: {},
    coveredTopics: KB_COVERED_TOPICS,
  };
  const to = Math.min(window.to, window.now + 1);
  for (let i = 0; i < sk.sessionCount; i++) {
    if (p.withheld.has(i)) continue;
    if (sk.start.get(i) > window.now) break;
    const visible = sk.visibleMessageCount(i, window.now);
    for (let k = 0; k < visible; k++) {
      const t = sk.messageTime(i, k);
      if (t < window.from || t >= to) continue;
      const facts = p.messageFacts(i, k);
      if (facts.nlpClass !== FALLBACK_CLASS) continue;
      const id = p.questionId(i, k);
      const topic = p.live.sessions.has(i) ? undefined : p.catchAllQuestion(i, k).topic;
      if (topic === undefined) truth.noise.push(id);
      else {
        truth.topicOf.set(id, topic);
        truth.topics[topic] = (truth.topics[topic] ?? 0) + 1;
      }
    }
  }
  return truth;
}

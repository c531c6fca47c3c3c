// The knowledge base's retrieval asked one question per cluster of unhandled questions (the cluster's central
// phrasing, docs/unhandled.md#coverage): the best chunk's source and score. One request per question, in
// order; a failed retrieval is kept as that cluster's error (code: message), a refused key (kb.auth) stops
// the whole ask, as it would fail every question. Reuses the client of `kb eval` (src/platform/kb/kb-client.ts).
import type { KbClient } from '../../platform/kb/kb-client.js';
import { describeError } from './generate-answer.js';

export interface CentralQuestion {
  clusterId: string;
  question: string;
}

/** What the retrieval answered (the shape src/analysis/unhandled/store-coverage.ts stores as CentralAnswer). */
export interface CentralRetrieval extends CentralQuestion {
  asked: boolean;
  sourceId: string | null;
  sourceName: string | null;
  /** The best chunk's score (0 when none came back or none had a score); null when the retrieval failed. */
  score: number | null;
  /** The best chunk's text. */
  chunk: string | null;
  error: string | null;
}

/** Asks each question to the retrieval; the best chunk is the one with the highest score. */
export async function askCentralQuestions(
  client: Pick<KbClient, 'retrieve'>,
  questions: readonly CentralQuestion[],
): Promise<CentralRetrieval[]> {
  const out: CentralRetrieval[] = [];
  for (const q of questions) {
    try {
      const chunks = await client.retrieve({ query: q.question });
      const best = chunks.reduce<(typeof chunks)[number] | undefined>(
        (top, c) => (top === undefined || (c.score ?? 0) > (top.score ?? 0) ? c : top),
        undefined,
      );
      out.push({
        ...q,
        asked: true,
        sourceId: best?.source?.id === undefined || best.source.id === null ? null : String(best.source.id),
        sourceName: best?.source?.title ?? best?.source?.path ?? null,
        score: best?.score ?? 0,
        chunk: best?.content ?? null,
        error: null,
      });
    } catch (error) {
      const { code, message } = describeError(error);
      if (code === 'kb.auth') throw error;
      out.push({
        ...q,
        asked: false,
        sourceId: null,
        sourceName: null,
        score: null,
        chunk: null,
        error: `${code}: ${message}`,
      });
    }
  }
  return out;
}

// Retrieval of the emulated knowledge base: sources are cut into one chunk per sentence, and a query's
// chunks are ranked by tf-idf overlap with the query (idf over the chunks searched), normalised to 0..1.
// Deterministic: the same sources and query give the same chunks, scores and order (ties by source id, then
// chunk position). Only what the caller passes is searched (the service passes INGESTED sources it may see).
import type { KbSource } from './kb-model.js';

const STOPWORDS = new Set(
  (
    'a an and are at be by can do does for from how i in is it its of on or the this to was what when ' +
    'where which who why will with within long many much often my me you your per any after'
  ).split(' '),
);

/** A plural or third-person `s` dropped, so `opens` meets `open` and `days` meets `day`. */
const stem = (t: string): string =>
  t.length > 3 && t.endsWith('s') && !t.endsWith('ss') ? t.slice(0, -1) : t;

/** Lower-case word tokens of a text without stop words, lightly stemmed. */
export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => !STOPWORDS.has(t)).map(stem);
}

/** One sentence per chunk (a text without sentence ends is one chunk). */
export function chunkText(text: string): string[] {
  const sentences = text.match(/[^.!?]+[.!?]*/g) ?? [];
  const chunks = sentences.map((s) => s.trim()).filter((s) => s !== '');
  return chunks.length > 0 ? chunks : text.trim() === '' ? [] : [text.trim()];
}

export interface RankedChunk {
  source: KbSource;
  /** Position of the chunk in its source. */
  position: number;
  content: string;
  score: number;
}

/** The chunks of `sources` matching `query`, best first: at most `topK`, scores above `minScore`. */
export function rankChunks(
  sources: readonly KbSource[],
  query: string,
  options: { topK: number; minScore?: number },
): RankedChunk[] {
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0) return [];
  const chunks: { source: KbSource; position: number; content: string; tokens: string[] }[] = [];
  for (const source of sources) {
    const texts = chunkText(source.text);
    for (let position = 0; position < texts.length; position++) {
      const content = texts[position]!;
      chunks.push({ source, position, content, tokens: tokenize(content) });
    }
  }
  const df = new Map<string, number>();
  for (const c of chunks) for (const t of new Set(c.tokens)) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => Math.log(1 + chunks.length / (df.get(t) ?? chunks.length));
  const best = terms.reduce((sum, t) => sum + idf(t), 0);
  const ranked: RankedChunk[] = [];
  for (const c of chunks) {
    const present = new Set(c.tokens);
    let sum = 0;
    for (const t of terms) if (present.has(t)) sum += idf(t);
    if (sum === 0) continue;
    const score = Math.round((sum / best) * 10_000) / 10_000;
    if (score <= (options.minScore ?? 0)) continue;
    ranked.push({ source: c.source, position: c.position, content: c.content, score });
  }
  ranked.sort((a, b) => b.score - a.score || a.source.id - b.source.id || a.position - b.position);
  return ranked.slice(0, Math.max(0, options.topK));
}

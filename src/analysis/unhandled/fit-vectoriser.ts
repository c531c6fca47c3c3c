// TF-IDF over two blocks of features (text-features.ts), fitted on distinct texts: the content terms and the
// character n-grams. Sublinear tf, smoothed idf, a feature kept when in at least MIN_DF texts (the MAX_FEATURES
// most frequent), each block L2-normalised and weighted so a text's row has unit length and the cosine of two
// texts is WORD_WEIGHT·cos(terms) + (1 − WORD_WEIGHT)·cos(n-grams). Word columns come first.
import { type SparseRows, sparseRows } from './sparse-rows.js';
import { type TextFeatures, textFeatures } from './text-features.js';

/** Share of a row's squared norm given to the term block. */
const WORD_WEIGHT = 0.5;
/** A feature must occur in at least this many distinct texts. */
const MIN_DF = 2;
/** At most this many features, the most frequent kept: bounds the LSA's cost. */
const MAX_FEATURES = 20_000;

export interface Vectoriser {
  /** Term → column (0 .. wordColumns − 1). */
  wordVocabulary: Map<string, number>;
  /** Hashed n-gram → column (wordColumns ..). */
  charVocabulary: Map<number, number>;
  idf: Float32Array;
  wordColumns: number;
  /** The term of each word column. */
  terms: string[];
  columns: number;
}

/** A text's unit row split by block, arrays reused from text to text (the assignment's hot loop). */
export interface TextRow {
  wordCols: number[];
  wordVals: number[];
  charCols: number[];
  charVals: number[];
}

interface Candidate {
  word?: string;
  char?: number;
  df: number;
}

/** Vocabulary and idf fitted on distinct masked texts (each counts once, whatever its messages). */
export function fitVectoriser(texts: readonly string[]): Vectoriser {
  const wordDf = new Map<string, number>();
  const charDf = new Map<number, number>();
  for (const t of texts) {
    const f = textFeatures(t);
    for (const k of f.word.keys()) wordDf.set(k, (wordDf.get(k) ?? 0) + 1);
    for (const k of f.char.keys()) charDf.set(k, (charDf.get(k) ?? 0) + 1);
  }
  const all: Candidate[] = [];
  for (const [word, df] of wordDf) if (df >= MIN_DF) all.push({ word, df });
  for (const [char, df] of charDf) if (df >= MIN_DF) all.push({ char, df });
  // The most frequent first; ties: terms before n-grams, then by term or hash.
  all.sort(
    (a, b) =>
      b.df - a.df ||
      Number(a.word === undefined) - Number(b.word === undefined) ||
      (a.word !== undefined && b.word !== undefined
        ? a.word < b.word
          ? -1
          : a.word > b.word
            ? 1
            : 0
        : a.char! - b.char!),
  );
  const kept = all.slice(0, MAX_FEATURES);
  const words = kept.filter((f) => f.word !== undefined).sort((a, b) => (a.word! < b.word! ? -1 : 1));
  const chars = kept.filter((f) => f.char !== undefined).sort((a, b) => a.char! - b.char!);
  const n = texts.length;
  return {
    wordVocabulary: new Map(words.map((f, i) => [f.word!, i])),
    charVocabulary: new Map(chars.map((f, i) => [f.char!, words.length + i])),
    idf: Float32Array.from([...words, ...chars], (f) => Math.log((1 + n) / (1 + f.df)) + 1),
    wordColumns: words.length,
    terms: words.map((f) => f.word!),
    columns: words.length + chars.length,
  };
}

export function emptyTextRow(): TextRow {
  return { wordCols: [], wordVals: [], charCols: [], charVals: [] };
}

/**
 * Fills `row` with the text's unit TF-IDF row (features given, or computed); false when it has no known
 * feature. An empty block gives its weight to the other, so every non-empty row has unit length.
 */
export function fillTextRow(v: Vectoriser, masked: string, row: TextRow, features?: TextFeatures): boolean {
  const f = features ?? textFeatures(masked);
  const wn = fillBlock(v, f.word, v.wordVocabulary, row.wordCols, row.wordVals);
  const cn = fillBlock(v, f.char, v.charVocabulary, row.charCols, row.charVals);
  if (wn === 0 && cn === 0) return false;
  const [a, b] = wn === 0 ? [0, 1] : cn === 0 ? [1, 0] : [Math.sqrt(WORD_WEIGHT), Math.sqrt(1 - WORD_WEIGHT)];
  scale(row.wordVals, wn > 0 ? a / Math.sqrt(wn) : 0);
  scale(row.charVals, cn > 0 ? b / Math.sqrt(cn) : 0);
  return true;
}

/** The block's known features with their tf·idf into cols/vals; returns the squared norm. */
function fillBlock<K>(
  v: Vectoriser,
  counts: ReadonlyMap<K, number>,
  vocabulary: ReadonlyMap<K, number>,
  cols: number[],
  vals: number[],
): number {
  cols.length = 0;
  vals.length = 0;
  let norm = 0;
  for (const [k, n] of counts) {
    const c = vocabulary.get(k);
    if (c === undefined) continue;
    const x = (1 + Math.log(n)) * v.idf[c]!;
    cols.push(c);
    vals.push(x);
    norm += x * x;
  }
  return norm;
}

function scale(values: number[], by: number): void {
  for (let j = 0; j < values.length; j++) values[j]! *= by;
}

/** The rows as sparse rows (an undefined row, a text without a known feature, is empty). */
export function sparseOfRows(v: Vectoriser, rows: readonly (TextRow | undefined)[]): SparseRows {
  return sparseRows(
    rows.map((row) => {
      const entries: [number, number][] = [];
      if (row === undefined) return entries;
      for (const [j, c] of row.wordCols.entries()) entries.push([c, row.wordVals[j]!]);
      for (const [j, c] of row.charCols.entries()) entries.push([c, row.charVals[j]!]);
      return entries;
    }),
    v.columns,
  );
}

// The distinct masked texts of a period's questions, sorted (input order does not matter), with their
// messages in the period and in the previous one, and each input's text by index; then the sample that is
// clustered: every text asked in the period, or beyond SAMPLE_SIZE a weighted sample without replacement
// (Efraimidis–Spirakis keys from a seeded hash of the text, so the sample does not depend on input order).
import { maskQuestion } from './normalise-question.js';
import { hashText } from './seeded-random.js';

/** One distinct question text of the period and of the previous one, with its message counts. */
export interface QuestionCount {
  question: string;
  /** Messages in the period. */
  current: number;
  /** Messages in the previous period of the same length. */
  previous: number;
}

export interface DistinctTexts {
  /** Masked, sorted. */
  texts: string[];
  current: Float64Array;
  previous: Float64Array;
  /** Each input question's index in `texts`. */
  textOf: Int32Array;
}

/** The questions masked and counted by masked text. */
export function distinctTexts(questions: readonly QuestionCount[]): DistinctTexts {
  const keys = questions.map((q) => maskQuestion(q.question));
  const counts = new Map<string, [number, number]>();
  for (const [i, key] of keys.entries()) {
    const c = counts.get(key) ?? [0, 0];
    c[0] += questions[i]!.current;
    c[1] += questions[i]!.previous;
    counts.set(key, c);
  }
  const texts = [...counts.keys()].sort();
  const indexOf = new Map(texts.map((t, i) => [t, i]));
  return {
    texts,
    current: Float64Array.from(texts, (t) => counts.get(t)![0]),
    previous: Float64Array.from(texts, (t) => counts.get(t)![1]),
    textOf: Int32Array.from(keys, (k) => indexOf.get(k)!),
  };
}

/** The indexes (ascending) of the texts clustered: those asked in the period, at most `size` of them. */
export function sampleTexts(d: DistinctTexts, size: number, seed: number): number[] {
  const asked: number[] = [];
  for (let i = 0; i < d.texts.length; i++) if (d.current[i]! > 0) asked.push(i);
  if (asked.length <= size) return asked;
  // A larger key wins: u^(1/weight), compared as ln(u) / weight.
  const key = (i: number) => Math.log((hashText(d.texts[i]!, seed) + 1) / 4294967297) / d.current[i]!;
  return asked
    .map((i) => [i, key(i)] as const)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, size)
    .map(([i]) => i)
    .sort((a, b) => a - b);
}

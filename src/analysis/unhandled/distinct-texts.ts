// The distinct masked texts of a period's questions, sorted (input order does not matter), with their
// messages in the period and in the previous one, and each input's text by index, collected one question at
// a time (a million messages' texts are streamed, never held as objects); then the sample that is
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

/** Questions added one by one, then their distinct masked texts. */
export interface TextCollector {
  add(question: string, current: number, previous: number): void;
  /** The distinct texts; the collector is spent. */
  finish(): DistinctTexts;
}

/** The questions masked and counted by masked text. */
export function distinctTexts(questions: readonly QuestionCount[]): DistinctTexts {
  const collector = collectDistinctTexts();
  for (const q of questions) collector.add(q.question, q.current, q.previous);
  return collector.finish();
}

/** A collector of questions: one Map entry per distinct masked text while adding, typed arrays for the rest. */
export function collectDistinctTexts(): TextCollector {
  const indexOf = new Map<string, number>();
  const texts: string[] = [];
  let current = new Float64Array(1024);
  let previous = new Float64Array(1024);
  let textOf = new Int32Array(1024);
  let inputs = 0;
  return {
    add(question, c, p) {
      const key = maskQuestion(question);
      let i = indexOf.get(key);
      if (i === undefined) {
        i = texts.length;
        indexOf.set(key, i);
        texts.push(key);
        if (i === current.length) [current, previous] = [grow(current), grow(previous)];
      }
      current[i]! += c;
      previous[i]! += p;
      if (inputs === textOf.length) textOf = grow(textOf);
      textOf[inputs++] = i;
    },
    finish() {
      indexOf.clear();
      const order = Array.from(texts.keys()).sort((a, b) => (texts[a]! < texts[b]! ? -1 : 1));
      const rank = new Int32Array(order.length);
      for (const [r, i] of order.entries()) rank[i] = r;
      return {
        texts: order.map((i) => texts[i]!),
        current: Float64Array.from(order, (i) => current[i]!),
        previous: Float64Array.from(order, (i) => previous[i]!),
        textOf: Int32Array.from(textOf.subarray(0, inputs), (i) => rank[i]!),
      };
    },
  };
}

/** A typed array twice as long with `a`'s values first: the arrays filled one value at a time grow by it. */
export function grow<T extends Float64Array | Int32Array | Uint8Array>(a: T): T {
  const bigger = new (a.constructor as new (n: number) => T)(a.length * 2);
  bigger.set(a);
  return bigger;
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

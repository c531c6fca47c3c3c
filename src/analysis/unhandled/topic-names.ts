// A topic's id: `u-` and the first 12 hex digits of the SHA-256 of its top ID_TERMS terms (sorted), taken
// from its centre in word space (its members' TF-IDF terms summed, weighted by messages) with NAMING_STOP
// left out. Ids are unique within a run: where two topics would share one, the bigger keeps it and the
// smaller takes one more term. Ids carried over from the previous run are reserved (carry-over-ids.ts).
import { createHash } from 'node:crypto';

/** Terms an id is made of (more only to settle a collision). */
export const ID_TERMS = 3;

/**
 * Stems that carry no topic on their own (question words, light verbs, particles, quantities, days): kept as
 * features and in the profile, never put in an id, so that "how much" or "make" name no topic.
 */
export const NAMING_STOP: ReadonlySet<string> = new Set(
  (
    'how what when where whi which who much mani long right now make take come go get need want use can not no ' +
    'on off up down out over again there here one new time day today tomorrow like just pleas know tell give ' +
    'как что когда где почему зачем скольк котор кто можн нужн надо не нет ест быть хоч сдела сказа дела ' +
    'сегодн завтр сейчас ещ уж так эт'
  ).split(' '),
);

/** The `count` best terms of a topic from its row of term scores (columns 0 .. terms.length − 1). */
export function topTerms(
  score: Float64Array,
  topic: number,
  terms: readonly string[],
  count: number,
): string[] {
  const columns = terms.length;
  const ranked: [number, number][] = [];
  for (let c = 0; c < columns; c++) {
    const v = score[topic * columns + c]!;
    if (v > 0) ranked.push([c, v]);
  }
  return ranked
    .sort((a, b) => b[1] - a[1] || (terms[a[0]]! < terms[b[0]]! ? -1 : 1))
    .slice(0, count)
    .map(([c]) => terms[c]!);
}

/** A topic's ranked terms for its id: NAMING_STOP left out, unless fewer than `base` would remain. */
function idTerms(ranked: readonly string[], base: number): string[] {
  const content = ranked.filter((t) => !NAMING_STOP.has(t));
  return content.length >= Math.min(base, ranked.length) ? content : [...ranked];
}

/** The id of a set of terms (order does not matter). */
export function topicId(terms: readonly string[]): string {
  return `u-${createHash('sha256')
    .update([...terms].sort().join(' '))
    .digest('hex')
    .slice(0, 12)}`;
}

export interface NamedId {
  id: string;
  /** The terms the id is made of. */
  terms: string[];
}

/**
 * Ids for topics given biggest first, each with its ranked terms: the first `base` terms hashed; where an id
 * is taken (by a bigger topic or `reserved`), one more term, and so on; as a last resort a number appended.
 */
export function assignIds(
  ranked: readonly (readonly string[])[],
  base = ID_TERMS,
  reserved: ReadonlySet<string> = new Set(),
): NamedId[] {
  const used = new Set<string>(reserved);
  return ranked.map((all) => {
    const terms = idTerms(all, base);
    for (let n = Math.min(base, terms.length); n <= terms.length; n++) {
      const id = topicId(terms.slice(0, n));
      if (used.has(id)) continue;
      used.add(id);
      return { id, terms: terms.slice(0, n) };
    }
    for (let k = 2; ; k++) {
      const id = topicId([...terms, `#${k}`]);
      if (used.has(id)) continue;
      used.add(id);
      return { id, terms: [...terms, `#${k}`] };
    }
  });
}

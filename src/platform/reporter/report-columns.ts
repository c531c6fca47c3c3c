// Which columns of a report file may hold a record's ids, found by their values: the seeds show no column of a
// report file, and a server may name them `questionId`, `Question ID`, `ID вопроса`, in any order, beside ids of
// its own. A column is id-like when every sampled row has a short value without spaces and nearly all of them
// differ; which one holds the ids is then decided by the ids the caller knows (the most found), a tie going to
// the header that says so (the hints, best first), then to the leftmost. Invariant: the same columns and ids
// always give the same choice; the header is never more than a tie-break.

/** Data rows the columns are judged on (all of them in a smaller report). */
export const SAMPLE_ROWS = 500;

/** Longer values are not ids (a text that happens to have no space). */
const MAX_ID_LENGTH = 200;
/** The share of a sample's values that must differ (a row repeated by the server does not hide the column). */
const DISTINCT_SHARE = 0.9;

/** Header hints, best first: a message id's, a session id's. */
export const MESSAGE_ID_HINTS: readonly RegExp[] = [/question|вопрос/i, /message|сообщени/i, /\bid\b|id$/i];
export const SESSION_ID_HINTS: readonly RegExp[] = [/session|сесси/i, /\bid\b|id$/i];

/** Every value present, short, without white space, nearly all distinct: a column that may hold ids. */
export function isIdLike(values: readonly string[]): boolean {
  if (values.length === 0) return false;
  const seen = new Set<string>();
  for (const value of values) {
    if (value === '' || value.length > MAX_ID_LENGTH || /\s/.test(value)) return false;
    seen.add(value);
  }
  return seen.size >= values.length * DISTINCT_SHARE;
}

/** The rank of a header name among `hints` (lower is likelier; the hints' count when none matches). */
export function idHintRank(name: string | undefined, hints: readonly RegExp[]): number {
  const rank = hints.findIndex((hint) => hint.test(name ?? ''));
  return rank < 0 ? hints.length : rank;
}

/** The positions of the id-like columns of a sample (rows of every field), the likeliest by `hints` first. */
export function idLikeColumns(
  header: readonly string[],
  sample: readonly (readonly string[])[],
  hints: readonly RegExp[],
  except: ReadonlySet<number> = new Set(),
): number[] {
  const width = Math.max(header.length, ...sample.map((row) => row.length));
  const ids: number[] = [];
  for (let position = 0; position < width; position++)
    if (!except.has(position) && isIdLike(sample.map((row) => row[position] ?? ''))) ids.push(position);
  // a stable sort: by the header's hint, then left to right
  return ids.sort((a, b) => idHintRank(header[a], hints) - idHintRank(header[b], hints));
}

/**
 * Of `candidates` (likeliest first), the one whose values hold the most of the known ids (`hits`), the first
 * on a tie; undefined when none holds any.
 */
export function chooseIdColumn<T>(candidates: readonly T[], hits: (candidate: T) => number): T | undefined {
  let best: { candidate: T; hits: number } | undefined;
  for (const candidate of candidates) {
    const found = hits(candidate);
    if (found > (best?.hits ?? 0)) best = { candidate, hits: found };
  }
  return best?.candidate;
}

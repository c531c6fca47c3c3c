// A report's period read in slices of time, so that sorting and joining one slice keep DuckDB's memory small.
// The first slice is an hour; each next one is sized from the rows per millisecond of the last to hold about
// SLICE_TARGET_ROWS (at most 4× longer than the one before): a sparse month is not 720 queries. Rows are not
// spread evenly (empty days before the first, a quiet week before a busy day), so a slice more than twice as
// long as the last one read, or following one that had to be cut (its rows per ms told little), is counted
// before it is read, and cut while it holds more than twice its target. A period asked from well before its
// first row (a month's report over a warehouse synced for three weeks) had reached its rows with a slice of
// days, all of them sorted at once: peak RSS 363-378 MB against 276 MB at 1M messages. Slices that keep their
// length are not counted: a count runs the report's query but for its rows (+17 % CPU for the 1M messages
// export when every slice was counted).

/** About how many rows a slice should hold. */
export const SLICE_TARGET_ROWS = 20_000;
const FIRST_SLICE_MS = 3_600_000;
const MIN_SLICE_MS = 60_000;

/** The next slice's length from the `rows` of the last one, `ms` long (bounded growth, never below a minute). */
export function nextSliceMs(previousMs: number, rows: number, ms: number): number {
  if (rows === 0) return previousMs * 4;
  const fit = (SLICE_TARGET_ROWS * ms) / rows;
  return Math.max(MIN_SLICE_MS, Math.min(previousMs * 4, Math.floor(fit)));
}

/** A slice of `rows` rows over `sliceMs` cut to hold about SLICE_TARGET_ROWS (twice that is let through). */
function cutToTarget(sliceMs: number, rows: number): number {
  if (rows <= 2 * SLICE_TARGET_ROWS) return sliceMs;
  return Math.max(MIN_SLICE_MS, Math.floor((sliceMs * SLICE_TARGET_ROWS) / rows));
}

export interface SlicedRead<T> {
  from: number;
  to: number;
  /** A fixed slice length (tests); none: sized as above. */
  sliceMs?: number | undefined;
  /** The rows of [from, to), in chunks. */
  read(from: number, to: number): AsyncIterable<T>;
  /** How many rows [from, to) holds: asked before a slice that grew more than 2× is read. */
  count(from: number, to: number): Promise<number>;
  /** How many rows a chunk holds. */
  rowsOf(chunk: T): number;
  /** Called after each slice (the caller frees what the slice's query held). */
  afterSlice?: () => void;
}

/** The chunks of [from, to), read slice after slice. */
export async function* streamInSlices<T>(o: SlicedRead<T>): AsyncGenerator<T> {
  let slice = o.sliceMs ?? FIRST_SLICE_MS;
  let lastMs = 0;
  let lastCut = false;
  for (let from = o.from; from < o.to; ) {
    if (o.sliceMs === undefined && (lastCut || slice > 2 * lastMs)) {
      const fitted = await fitSlice(o, from, slice);
      lastCut = fitted < slice;
      slice = fitted;
    } else lastCut = false;
    const to = Math.min(from + slice, o.to);
    lastMs = to - from;
    let rows = 0;
    for await (const chunk of o.read(from, to)) {
      rows += o.rowsOf(chunk);
      yield chunk;
    }
    o.afterSlice?.();
    if (o.sliceMs === undefined) slice = nextSliceMs(slice, rows, to - from);
    from = to;
  }
}

/** The slice from `from`, cut (and counted again) until it holds at most twice the target, or is a minute. */
async function fitSlice(o: SlicedRead<unknown>, from: number, sliceMs: number): Promise<number> {
  // a slice past the period's end is the rest of the period: its rows per ms are over that length
  let slice = Math.min(sliceMs, o.to - from);
  for (;;) {
    const cut = cutToTarget(slice, await o.count(from, from + slice));
    if (cut === slice) return slice;
    slice = cut;
  }
}

// streamInSlices over a fake table of row times: every row read once and in order, and no slice holding far
// more than its target, also when the period starts long before the first row (the slices grew 4x over the
// empty days and reached the rows with a slice of days) and when a quiet week is followed by a busy day.
import { describe, expect, it } from 'vitest';
import { SLICE_TARGET_ROWS, streamInSlices } from '../../src/report/stream-in-slices.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** `count` rows evenly spread over [from, to). */
function evenRows(count: number, from: number, to: number): number[] {
  return Array.from({ length: count }, (_, i) => from + Math.floor(((to - from) * i) / count));
}

/** Reads [0, periodMs) of `times` in slices; returns each slice's rows and the counts asked. */
async function readAll(times: number[], periodMs: number) {
  const slices: number[][] = [];
  const counted: Array<[number, number]> = [];
  const inRange = (from: number, to: number) => times.filter((t) => t >= from && t < to);
  const rows: number[] = [];
  for await (const chunk of streamInSlices({
    from: 0,
    to: periodMs,
    async *read(from, to) {
      const slice = inRange(from, to);
      slices.push(slice);
      for (let i = 0; i < slice.length; i += 2048) yield slice.slice(i, i + 2048);
    },
    count: async (from, to) => {
      counted.push([from, to]);
      return inRange(from, to).length;
    },
    rowsOf: (chunk) => chunk.length,
  }))
    rows.push(...chunk);
  return { rows, slices, counted };
}

describe('streamInSlices', () => {
  it('reads every row once, in order, in slices of about the target', async () => {
    const times = evenRows(300_000, 0, 30 * DAY);
    const { rows, slices, counted } = await readAll(times, 30 * DAY);
    expect(rows).toEqual(times);
    expect(Math.max(...slices.map((s) => s.length))).toBeLessThanOrEqual(2 * SLICE_TARGET_ROWS);
    // rows spread evenly: once the slices hold their target they keep their length and are not counted
    expect(counted.length).toBeLessThan(slices.length / 4);
  });

  it('a period asked from long before its first row: no slice of days of rows at once', async () => {
    // 10 days of rows (310,000) at the end of a 40-day period: the empty days grew the slices 1, 4, 16, 64,
    // 256 hours, and the 256-hour slice held 215,000 rows before the count
    const times = evenRows(310_000, 30 * DAY, 40 * DAY);
    const { rows, slices, counted } = await readAll(times, 40 * DAY);
    expect(rows).toEqual(times);
    expect(Math.max(...slices.map((s) => s.length))).toBeLessThanOrEqual(2 * SLICE_TARGET_ROWS);
    // the slices grown over the empty days were counted before they were read
    expect(counted.length).toBeGreaterThan(0);
  });

  it('a quiet week, then a busy day: the slices grown in the quiet are cut', async () => {
    const quiet = evenRows(700, 0, 7 * DAY);
    const busy = evenRows(200_000, 7 * DAY, 8 * DAY);
    const { rows, slices } = await readAll([...quiet, ...busy], 9 * DAY);
    expect(rows).toEqual([...quiet, ...busy]);
    expect(Math.max(...slices.map((s) => s.length))).toBeLessThanOrEqual(2 * SLICE_TARGET_ROWS);
  });

  it('an empty period: slices grow and are counted, nothing is read', async () => {
    const { rows, slices } = await readAll([], 40 * DAY);
    expect(rows).toEqual([]);
    expect(slices.length).toBeLessThan(10);
  });
});

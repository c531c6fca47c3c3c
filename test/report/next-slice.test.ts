// The streamed slices of a report adapt to the data: about 20,000 rows each, growing at most 4× a step.
import { describe, expect, it } from 'vitest';
import { nextSliceMs } from '../../src/report/stream-in-slices.js';

const HOUR = 3_600_000;

describe('nextSliceMs', () => {
  it('grows at most 4× while the rows are sparse, and 4× when there were none', () => {
    expect(nextSliceMs(HOUR, 1_000, HOUR)).toBe(4 * HOUR);
    expect(nextSliceMs(HOUR, 0, HOUR)).toBe(4 * HOUR);
  });
  it('fits about 20,000 rows from the rows per ms seen so far', () => {
    // 10,000 rows in 2 hours: 20,000 rows take 4 hours (within the 4× bound of a 1-hour slice)
    expect(nextSliceMs(HOUR, 10_000, 2 * HOUR)).toBe(4 * HOUR);
    // 100,000 rows in 10 hours: 20,000 rows take 2 hours
    expect(nextSliceMs(4 * HOUR, 100_000, 10 * HOUR)).toBe(2 * HOUR);
  });
  it('never goes below a minute', () => {
    expect(nextSliceMs(HOUR, 10_000_000, HOUR)).toBe(60_000);
  });
});

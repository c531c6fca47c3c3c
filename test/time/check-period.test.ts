// The one check of a period's order: an empty period is refused in the same words everywhere, and a day given as
// `--from D --to D` is told which --to takes that whole day, a reversed one to swap them (the expected texts are
// written by hand).
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { assertFromBeforeTo } from '../../src/time/check-period.js';

const at = (iso: string) => Date.parse(iso);

describe('assertFromBeforeTo', () => {
  it('lets a non-empty period through', () => {
    expect(() => assertFromBeforeTo(at('2026-11-25T00:00Z'), at('2026-11-26T00:00Z'))).not.toThrow();
  });

  it.each([
    ['2026-11-25', '2026-11-25', ': for the whole day 2026-11-25, give --to 2026-11-26'],
    ['2026-12-31', '2026-12-30', ': they are the wrong way round, give --from 2026-12-30 --to 2026-12-31'],
    ['2028-02-28', '2028-02-28', ': for the whole day 2028-02-28, give --to 2028-02-29'],
    [
      '2026-11-25T10:00',
      '2026-11-25T09:00',
      ': they are the wrong way round, give --from 2026-11-25T09:00 --to 2026-11-25T10:00',
    ],
    ['2026-11-25T10:00', '2026-11-25T10:00', ''],
  ])('--from %s --to %s: the hint is "%s"', (from, to, hint) => {
    let error: unknown;
    try {
      assertFromBeforeTo(
        at(`${from.length === 10 ? `${from}T00:00` : from}Z`),
        at(`${to.length === 10 ? `${to}T00:00` : to}Z`),
        { from, to },
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(
      /^--from \(.*\) must be before --to \(.*\); --from is inclusive, --to exclusive/,
    );
    expect((error as Error).message.endsWith(`exclusive${hint}`)).toBe(true);
  });

  it('refuses a time that is not a number', () => {
    expect(() => assertFromBeforeTo(Number.NaN, 1)).toThrow(/--from \(NaN\) must be before --to/);
  });
});

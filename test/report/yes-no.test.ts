// One form of a yes/no figure in every report format: the workbook's cell and the HTML page's cell both say
// "yes" or "no", whether the value is a boolean or (from SQL that counts) a number in a `boolean` column.
import { describe, expect, it } from 'vitest';
import { toCellValue } from '../../src/report/cell-values.js';
import { formatCell } from '../../src/report/write-html-report.js';

const sameTime = (t: number) => t;
const cases: [unknown, string][] = [
  [true, 'yes'],
  [false, 'no'],
  [1, 'yes'],
  [0, 'no'],
  [1n, 'yes'],
  [0n, 'no'],
];

describe('a yes/no figure', () => {
  it.each(cases)(
    '%s in a boolean column: the same word in the workbook and on the page (%s)',
    (value, word) => {
      const input = value as Parameters<typeof toCellValue>[0];
      expect(toCellValue(input, 'boolean', sameTime, (s) => s)).toBe(word);
      expect(formatCell(input, 'boolean', sameTime)).toBe(word);
    },
  );

  it('an empty value stays empty (not "no"): the figure is unknown', () => {
    expect(toCellValue(null, 'boolean', sameTime, (s) => s)).toBeNull();
    expect(formatCell(null, 'boolean', sameTime)).toBe('');
  });

  it('a number in a column that is not yes/no stays a number', () => {
    expect(toCellValue(1, 'integer', sameTime, (s) => s)).toBe(1);
    expect(formatCell(1, 'integer', sameTime)).toBe('1');
  });
});

// Turns a report value into what an XLSX cell holds, per column format: numbers stay numbers (never bigint),
// date-times become Excel serial numbers of the local wall-clock time in the report's zone (Excel has no
// zones, so the zone is in the header), durations become fractions of a day, text is fitted to Excel's limits,
// a yes/no figure (a boolean, or 0/1 in a `boolean` column) is the text yes or no, as on the HTML page.
import { withoutNoise } from '../text/format-figures.js';
import { offsetAt } from '../time/parse-zoned-time.js';
import { codeInWords } from './code-words.js';
import type { CellFormat, CellInput } from './report-definition.js';

/** Excel number formats of each column format (date-times always show the time). */
export const NUM_FMT: Record<CellFormat, string | undefined> = {
  text: '@',
  integer: '#,##0',
  id: '0',
  number: '#,##0.00',
  decimal3: '0.000',
  percent: '0.0%',
  datetime: 'yyyy-mm-dd hh:mm:ss',
  date: 'yyyy-mm-dd',
  duration: '[h]:mm:ss',
  boolean: undefined,
  code: '@',
  countChange: '+#,##0;-#,##0;0',
  percentChange: '+0.0%;-0.0%;0.0%',
  // the cell holds points (the difference of two fractions times 100): Excel's % would add a percent sign
  pointsChange: '+0.0" pp";-0.0" pp";0.0" pp"',
  msChange: '+#,##0" ms";-#,##0" ms";0" ms"',
  decimal3Change: '+0.000;-0.000;0.000',
};

export const DEFAULT_WIDTH: Record<CellFormat, number> = {
  text: 24,
  integer: 12,
  id: 10,
  number: 12,
  decimal3: 10,
  percent: 10,
  // 19 characters and room to spare: a time that fills its column runs into the next cell's text
  datetime: 22,
  date: 12,
  duration: 11,
  boolean: 8,
  code: 16,
  countChange: 10,
  percentChange: 10,
  pointsChange: 11,
  msChange: 12,
  decimal3Change: 10,
};

const DAY_MS = 86_400_000;
/** 1970-01-01 as an Excel serial day (1900 date system). */
const EPOCH_SERIAL = 25_569;
const QUARTER_MS = 900_000;

/** Local wall-clock time of instants in one zone, with the offset looked up once per quarter hour. */
export function createZoneClock(timeZone: string): (t: number) => number {
  const offsets = new Map<number, number>();
  return (t) => {
    const quarter = Math.floor(t / QUARTER_MS);
    let offset = offsets.get(quarter);
    if (offset === undefined) {
      offset = offsetAt(quarter * QUARTER_MS, timeZone);
      if (offsets.size > 100_000) offsets.clear();
      offsets.set(quarter, offset);
    }
    return t + offset;
  };
}

/** Excel's serial number of a wall-clock time given as if it were UTC epoch ms. */
export function excelSerial(wallMs: number): number {
  return wallMs / DAY_MS + EPOCH_SERIAL;
}

export type CellOutput = string | number | boolean | null;

/** The cell value of `value` in a column of `format`; text is passed to `fitText` (Excel's limits). */
export function toCellValue(
  value: CellInput,
  format: CellFormat,
  localTime: (t: number) => number,
  fitText: (text: string) => string,
): CellOutput {
  if (value === null || value === undefined) return null;
  if (format === 'boolean' && (typeof value === 'number' || typeof value === 'bigint'))
    return yesNo(Number(value) !== 0);
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    switch (format) {
      case 'datetime':
        return excelSerial(localTime(value));
      case 'date':
        return excelSerial(value);
      case 'duration':
        return value / DAY_MS;
      case 'pointsChange':
        return withoutNoise(value * 100);
      default:
        // full precision, without binary noise (20.7, not 20.69999999999999), as JSON has it
        return withoutNoise(value);
    }
  }
  if (typeof value === 'boolean') return yesNo(value);
  if (typeof value === 'string') return fitText(format === 'code' ? codeInWords(value) : value);
  if (value instanceof Uint8Array) return fitText(`<${value.length} bytes>`);
  return fitText(JSON.stringify(value));
}

/**
 * The one form of a yes/no figure in every report and format: "yes" or "no" (not TRUE/FALSE, which Excel
 * shows in its own language, nor 1/0 where the SQL gives a number for a `boolean` column).
 */
export function yesNo(value: boolean): 'yes' | 'no' {
  return value ? 'yes' : 'no';
}

const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** About how many characters a cell shows in its format (for column widths from content). */
export function shownLength(value: CellOutput, format: CellFormat): number {
  if (value === null) return 0;
  if (typeof value === 'boolean') return 5;
  if (typeof value === 'string')
    return value.length <= 200 ? Math.max(...value.split('\n').map((l) => l.length)) : 200;
  switch (format) {
    case 'integer':
      return GROUPED.format(value).length;
    case 'number':
      return GROUPED.format(Math.trunc(value)).length + 3;
    case 'decimal3':
      return value.toFixed(3).length;
    case 'percent':
      return (value * 100).toFixed(1).length + 1;
    case 'date':
      return 10;
    case 'datetime':
      return 19;
    case 'duration':
      return String(Math.floor(Math.abs(value) * 24)).length + 6;
    case 'countChange':
    case 'percentChange':
    case 'pointsChange':
    case 'msChange':
      return GROUPED.format(Math.trunc(value)).length + 6;
    case 'decimal3Change':
      return value.toFixed(3).length + 1;
    default:
      return String(value).length;
  }
}

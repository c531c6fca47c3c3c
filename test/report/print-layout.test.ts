// The print layout's pieces without LibreOffice (test/report/printed-reports.test.ts prints them): the period a
// page names, the header and footer codes (a literal & doubled; a period starting with digits never read as the
// font size), and the scale: the largest that fits the page, never under 70 %, a wider sheet printing across
// pages with its first column repeated and a column left off paper outside the print area.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  columnPoints,
  fitPrintWidth,
  headerFooter,
  MIN_PRINT_SCALE,
  printedPeriod,
} from '../../src/report/print-layout.js';
import type { ColumnSpec } from '../../src/report/report-definition.js';
import { rowXml } from '../../src/report/row-xml.js';

const column = (key: string, width: number, print?: false): ColumnSpec =>
  print === false
    ? { key, header: key, format: 'text', width, print }
    : { key, header: key, format: 'text', width };

/** A sheet with columns of these widths, printed as the writers print it. */
function printed(columns: ColumnSpec[], rows = 10) {
  const sheet = new ExcelJS.Workbook().addWorksheet('Sheet');
  columns.forEach((c, i) => {
    sheet.getColumn(i + 1).width = c.width!;
  });
  fitPrintWidth(sheet, columns, rows);
  return sheet.pageSetup;
}

describe('printing a report sheet', () => {
  it('names the period in the zone: whole days as dates (one day alone), else local date-times', () => {
    const tz = 'Europe/Moscow';
    const day = Date.parse('2026-10-31T00:00:00+03:00');
    expect(printedPeriod(day, day + 86_400_000, tz)).toBe('2026-10-31 (Europe/Moscow)');
    expect(printedPeriod(day - 6 * 86_400_000, day + 86_400_000, tz)).toBe(
      '2026-10-25 – 2026-10-31 (Europe/Moscow)',
    );
    expect(printedPeriod(day + 9.5 * 3_600_000, day + 18 * 3_600_000, tz)).toBe(
      '2026-10-31 09:30 – 2026-10-31 18:00 (Europe/Moscow)',
    );
  });

  it('writes the report, the sheet and the period above, the last sync and Page N of M below; & doubled', () => {
    const { oddHeader, oddFooter } = headerFooter({ title: 'Q&A', period: '2026-10-31 (UTC)' });
    expect(oddHeader).toBe(
      '&L&11&"Calibri,Regular"Q&&A&C&11&"Calibri,Regular"&A&R&11&"Calibri,Regular"2026-10-31 (UTC)',
    );
    // the size code is followed by the font's name, never by the period's digits (&112026 is size 112026)
    expect(oddHeader).not.toMatch(/&\d+\d{4}-/);
    expect(oddFooter).toBe('&R&11&"Calibri,Regular"Page &P of &N');
    const synced = headerFooter({ title: 'Q', period: 'P', synced: 'Last synced 2026-10-31 14:05 (UTC)' });
    expect(synced.oddFooter).toBe(
      '&L&11&"Calibri,Regular"Last synced 2026-10-31 14:05 (UTC)&R&11&"Calibri,Regular"Page &P of &N',
    );
  });

  it('scales a sheet to the page width: 100 % when it fits, less when not, never under 70 %', () => {
    // A4 landscape less 0.4 in margins is 784 pt; 96 % of it is sized against: 752 pt
    expect(printed([column('a', 40), column('b', 40)])).toMatchObject({ scale: 100, fitToPage: false });
    const wide = Array.from({ length: 6 }, (_, i) => column(`c${i}`, 20)); // 6 × 142 pt = 852 pt
    expect(printed(wide).scale).toBe(Math.floor((100 * 0.96 * 784) / (6 * columnPoints(20))));
    expect(printed(wide).printTitlesColumn).toBeUndefined();
    const tooWide = Array.from({ length: 20 }, (_, i) => column(`c${i}`, 20));
    const setup = printed(tooWide);
    expect(setup.scale).toBe(MIN_PRINT_SCALE);
    expect(setup.printTitlesColumn).toBe('A:A');
    expect(setup.pageOrder).toBe('overThenDown');
  });

  it('leaves the columns not needed on paper out of the print area, and out of the width', () => {
    const setup = printed([column('a', 40), column('b', 40), column('c', 200, false)], 4);
    expect(setup.printArea).toBe('A$1:B$4');
    expect(setup.scale).toBe(100);
  });

  it('a long text column carries its wrapping style into the row XML', () => {
    expect(rowXml(2, ['long text', 'short'], ['A', 'B'], [7, 0])).toBe(
      '<row r="2"><c r="A2" s="7" t="inlineStr"><is><t xml:space="preserve">long text</t></is></c>' +
        '<c r="B2" t="inlineStr"><is><t xml:space="preserve">short</t></is></c></row>',
    );
  });
});

// How a report sheet prints (docs/reports.md, "Printing"): A4 landscape; a header naming the report, the sheet
// and the period, a footer "Page N of M" on every page; scaled down to the page width but never below
// MIN_PRINT_SCALE (the body is Calibri 11: no printed word under 7 pt), and a sheet still wider than the page
// prints across pages, its header row and first (key) column repeated on each, rather than shrunk further.
import type { Worksheet } from 'exceljs';
import { createZoneClock } from './cell-values.js';
import type { ColumnSpec } from './report-definition.js';
import { columnLetters } from './row-xml.js';

/** The smallest print scale, in percent: Calibri 11 at 70 % is 7.7 pt. */
export const MIN_PRINT_SCALE = 70;

/** The header and footer's font size in points (LibreOffice scales them with the sheet: 7.7 pt at 70 %). */
export const HEADER_FOOTER_POINTS = 11;

/** Margins in inches: narrow at the sides for the width, room for the header and footer above and below. */
export const PRINT_MARGINS = { left: 0.4, right: 0.4, top: 0.75, bottom: 0.75, header: 0.3, footer: 0.3 };

/** A4 landscape's width in points less the side margins. */
const PRINTABLE_WIDTH_PT = 842 - (PRINT_MARGINS.left + PRINT_MARGINS.right) * 72;

/** What the layout is sized against: a little less than the page, since a column's printed width is estimated. */
const USABLE_WIDTH_PT = PRINTABLE_WIDTH_PT * 0.96;

/**
 * A column's printed width at 100 %, in points, from its width in characters: Excel's character is the
 * default font's digit, 7 px (5.25 pt) for Calibri 11; LibreOffice without Calibri or Carlito (its fallback's
 * wider digit) prints 7 pt a character (measured: a 95-character sheet printed 666 pt wide). The wider one,
 * so that a sheet sized for the page fits it in either.
 */
export function columnPoints(widthInCharacters: number): number {
  return widthInCharacters * 7 + 2;
}

/** The page setup every table sheet starts with (its scale is set once its column widths are known). */
export const PRINT_SETUP = {
  paperSize: 9, // A4: without it LibreOffice takes its locale's (Letter here)
  orientation: 'landscape' as const,
  fitToPage: false,
  scale: 100,
  margins: PRINT_MARGINS,
  horizontalCentered: false,
};

/** What a printed page says of itself: the report's title and its period. */
export interface PrintHeading {
  title: string;
  period: string;
}

/** `&` starts a code in a header or footer: a literal one is written twice. */
function headerText(text: string): string {
  return text.replace(/&/g, '&&');
}

/** The sheet's header (report left, sheet centre, period right) and footer ("Page N of M"). */
export function headerFooter(heading: PrintHeading): { oddHeader: string; oddFooter: string } {
  // the font's name after its size: a period starting with digits would otherwise be read as the size
  const size = `&${HEADER_FOOTER_POINTS}&"Calibri,Regular"`;
  return {
    oddHeader: `&L${size}${headerText(heading.title)}&C${size}&A&R${size}${headerText(heading.period)}`,
    oddFooter: `&C${size}Page &P of &N`,
  };
}

/**
 * Sizes a sheet's print to its printed columns (their widths set): the largest scale at which they fit the
 * page's width, at least MIN_PRINT_SCALE; wider than that, its first column is repeated on every page across
 * and the pages go across before down.
 * Columns marked `print: false` (the last ones) are left out by a print area over the others.
 */
export function fitPrintWidth(sheet: Worksheet, columns: readonly ColumnSpec[], rows: number): void {
  const printed = columns.findIndex((c) => c.print === false);
  const columnCount = printed < 0 ? columns.length : Math.max(printed, 1);
  // exceljs puts a $ before each corner: A$1 becomes $A$1 (LibreOffice ignores a relative row)
  if (columnCount < columns.length) sheet.pageSetup.printArea = `A$1:${columnLetters(columnCount)}$${rows}`;
  let points = 0;
  for (let i = 1; i <= columnCount; i += 1) points += columnPoints(sheet.getColumn(i).width ?? 9);
  const fits = Math.floor((100 * USABLE_WIDTH_PT) / Math.max(points, 1));
  const scale = Math.max(MIN_PRINT_SCALE, Math.min(100, fits));
  sheet.pageSetup.scale = scale;
  sheet.pageSetup.fitToPage = false;
  if (fits < MIN_PRINT_SCALE && columnCount > 1) {
    sheet.pageSetup.printTitlesColumn = 'A:A';
    // the pages of the same rows one after the other, the way a row is read
    sheet.pageSetup.pageOrder = 'overThenDown';
  }
}

const DAY_MS = 86_400_000;

/**
 * The period as a printed page names it, in the report's zone: whole local days as dates, the last one
 * inclusive (`2026-10-25 – 2026-10-31`, one day alone), else local date-times with `to` exclusive.
 */
export function printedPeriod(from: number, to: number, tz: string): string {
  const local = createZoneClock(tz);
  const [wallFrom, wallTo] = [local(from), local(to)];
  if (wallFrom % DAY_MS === 0 && wallTo % DAY_MS === 0 && wallTo > wallFrom) {
    const [first, last] = [day(wallFrom), day(wallTo - DAY_MS)];
    return first === last ? `${first} (${tz})` : `${first} – ${last} (${tz})`;
  }
  return `${minute(wallFrom)} – ${minute(wallTo)} (${tz})`;
}

function day(wall: number): string {
  return new Date(wall).toISOString().slice(0, 10);
}

function minute(wall: number): string {
  return new Date(wall).toISOString().slice(0, 16).replace('T', ' ');
}

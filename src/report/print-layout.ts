// How a report sheet prints (docs/reports.md, "Print rules"): A4 landscape; a header naming the report, the
// sheet and the period, a footer saying when the data was last synced and "Page N of M" on every page; scaled
// down to the page width but never below MIN_PRINT_SCALE (the body is Calibri 11: no printed word under 7 pt);
// wider, its text columns are narrowed (their text wraps), and a sheet still wider prints across pages, its
// header row and first (key) column repeated on each, balanced so that no page across is nearly blank.
import type { Worksheet } from 'exceljs';
import type { ColumnSpec } from './report-definition.js';
import { columnLetters } from './row-xml.js';
import { CHARACTER_POINTS } from './text-lines.js';

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
  return widthInCharacters * CHARACTER_POINTS + 2;
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

/** What a printed page says of itself: the report's title, its period and when its data was last synced. */
export interface PrintHeading {
  title: string;
  period: string;
  /** "Last synced 2026-11-01 03:02 (Europe/Moscow)": printed at the foot of every page (data-basis.ts). */
  synced?: string;
}

/** `&` starts a code in a header or footer: a literal one is written twice. */
function headerText(text: string): string {
  return text.replace(/&/g, '&&');
}

/** The sheet's header (report left, sheet centre, period right) and footer (last sync left, "Page N of M" right). */
export function headerFooter(heading: PrintHeading): { oddHeader: string; oddFooter: string } {
  // the font's name after its size: a period starting with digits would otherwise be read as the size
  const size = `&${HEADER_FOOTER_POINTS}&"Calibri,Regular"`;
  const synced = heading.synced === undefined ? '' : `&L${size}${headerText(heading.synced)}`;
  return {
    oddHeader: `&L${size}${headerText(heading.title)}&C${size}&A&R${size}${headerText(heading.period)}`,
    oddFooter: `${synced}&R${size}Page &P of &N`,
  };
}

/** Text columns are narrowed down to this many characters (their text wraps) before a sheet prints across pages. */
export const NARROWEST_TEXT_COLUMN = 18;
/** The last page of a sheet printed across pages holds at least this share of a page's width, or the columns are rebalanced. */
const LEAST_LAST_PAGE = 0.6;

/** How a sheet prints: its columns' widths (some text columns narrowed or widened), its scale, across pages or not. */
export interface PrintPlan {
  widths: number[];
  scale: number;
  /** Wider than a page at MIN_PRINT_SCALE: printed across pages, the first column repeated on each. */
  across: boolean;
  /** The columns (0-based) each page across holds after the repeated first one; one page when not across. */
  pages: number[][];
}

/**
 * The print of columns of `widths` (characters; the first `printed` of them printed), `narrowable[i]` true for
 * a text column whose text may wrap narrower: the largest scale at which they fit the page's width, at least
 * MIN_PRINT_SCALE; narrowing the text columns (down to NARROWEST_TEXT_COLUMN, or their header's need in
 * `least`) before printing across pages; across pages, the text columns are narrowed when that saves the last
 * page, else widened so that no page across is nearly blank.
 */
export function planPrint(
  widths: readonly number[],
  narrowable: readonly boolean[],
  least: readonly number[],
  printed = widths.length,
): PrintPlan {
  const w = widths.slice(0, printed);
  const rest = widths.slice(printed);
  const room = USABLE_WIDTH_PT;
  const scaleToFit = (ws: number[]) => Math.floor((100 * room) / Math.max(totalPoints(ws), 1));
  const one = (ws: number[], scale: number): PrintPlan => ({
    widths: [...ws, ...rest],
    scale: Math.min(100, scale),
    across: false,
    pages: [ws.map((_, i) => i).slice(1)],
  });
  if (scaleToFit(w) >= MIN_PRINT_SCALE || w.length <= 1)
    return one(w, Math.max(MIN_PRINT_SCALE, scaleToFit(w)));
  const pageRoom = (100 * room) / MIN_PRINT_SCALE;
  const floor = w.map((width, i) =>
    narrowable[i] ? Math.min(width, Math.max(NARROWEST_TEXT_COLUMN, least[i] ?? 0)) : width,
  );
  const narrowed = narrowTo(w, floor, pageRoom);
  if (totalPoints(narrowed) <= pageRoom) return one(narrowed, scaleToFit(narrowed));
  // across pages: each page holds the first column again
  const across = pageRoom - columnPoints(w[0] ?? 0);
  let plan = w;
  let pages = packColumns(plan, across);
  if (lastFill(plan, pages, across) < LEAST_LAST_PAGE) {
    const fewer = narrowTo(
      w,
      floor,
      (pages.length - 1) * across + columnPoints(w[0] ?? 0),
      (ws) => packColumns(ws, across).length < pages.length,
    );
    if (packColumns(fewer, across).length < pages.length) plan = fewer;
    else plan = widenLastPage(w, narrowable, pages, across);
    pages = packColumns(plan, across);
  }
  return { widths: [...plan, ...rest], scale: MIN_PRINT_SCALE, across: true, pages };
}

function totalPoints(widths: readonly number[]): number {
  return widths.reduce((sum, w) => sum + columnPoints(w), 0);
}

/**
 * The widths with the narrowable ones (floor below their width) narrowed by one factor until the total fits
 * `points` (or `done` says so), none under its floor.
 */
function narrowTo(
  widths: readonly number[],
  floor: readonly number[],
  points: number,
  done: (ws: number[]) => boolean = (ws) => totalPoints(ws) <= points,
): number[] {
  let factor = 1;
  let ws = [...widths];
  while (!done(ws) && factor > 0.05) {
    factor -= 0.05;
    ws = widths.map((width, i) => Math.max(floor[i] ?? width, Math.round(width * factor)));
    if (ws.every((width, i) => width === (floor[i] ?? width))) break;
  }
  return ws;
}

/** The columns after the first, page by page: each page takes the whole columns that fit `across` points. */
export function packColumns(widths: readonly number[], across: number): number[][] {
  const pages: number[][] = [];
  let page: number[] = [];
  let used = 0;
  for (let i = 1; i < widths.length; i++) {
    const points = columnPoints(widths[i] ?? 0);
    if (page.length > 0 && used + points > across) {
      pages.push(page);
      page = [];
      used = 0;
    }
    page.push(i);
    used += points;
  }
  if (page.length > 0) pages.push(page);
  return pages;
}

function lastFill(widths: readonly number[], pages: number[][], across: number): number {
  const last = pages[pages.length - 1] ?? [];
  return last.reduce((sum, i) => sum + columnPoints(widths[i] ?? 0), 0) / across;
}

/** The narrowable columns of the last page widened (their text wraps less) until it is filled LEAST_LAST_PAGE. */
function widenLastPage(
  widths: readonly number[],
  narrowable: readonly boolean[],
  pages: number[][],
  across: number,
): number[] {
  const ws = [...widths];
  const last = pages[pages.length - 1] ?? [];
  const wide = last.filter((i) => narrowable[i]);
  const used = last.reduce((sum, i) => sum + columnPoints(ws[i] ?? 0), 0);
  const missing = LEAST_LAST_PAGE * across - used;
  if (wide.length === 0 || missing <= 0) return ws;
  const more = Math.ceil(missing / wide.length / CHARACTER_POINTS);
  for (const i of wide) ws[i] = (ws[i] ?? 0) + more;
  return ws;
}

/**
 * Prints a sheet as `plan` says (its column widths already set from it): its scale, and across pages its first
 * column repeated on every page and the pages of the same rows one after the other. Columns marked
 * `print: false` (the last ones) are left out by a print area over the others; `printedColumns` narrows it
 * further (an empty sheet prints the columns of one page).
 */
export function applyPrintPlan(
  sheet: Worksheet,
  plan: PrintPlan,
  columns: readonly ColumnSpec[],
  rows: number,
  printedColumns = printedColumnCount(columns),
): void {
  // exceljs puts a $ before each corner: A$1 becomes $A$1 (LibreOffice ignores a relative row)
  if (printedColumns < columns.length)
    sheet.pageSetup.printArea = `A$1:${columnLetters(printedColumns)}$${rows}`;
  sheet.pageSetup.scale = plan.scale;
  sheet.pageSetup.fitToPage = false;
  if (plan.across && printedColumns > 1) {
    sheet.pageSetup.printTitlesColumn = 'A:A';
    // the pages of the same rows one after the other, the way a row is read
    sheet.pageSetup.pageOrder = 'overThenDown';
  }
}

/** The columns on paper: those before the first marked `print: false` (at least one). */
export function printedColumnCount(columns: readonly ColumnSpec[]): number {
  const at = columns.findIndex((c) => c.print === false);
  return at < 0 ? columns.length : Math.max(at, 1);
}

/**
 * Sizes a sheet's print to its printed columns (their widths set, never changed here): the largest scale at
 * which they fit the page's width, at least MIN_PRINT_SCALE; wider, printed across pages.
 */
export function fitPrintWidth(sheet: Worksheet, columns: readonly ColumnSpec[], rows: number): void {
  const count = printedColumnCount(columns);
  const widths = columns.map((_, i) => sheet.getColumn(i + 1).width ?? 9);
  const plan = planPrint(
    widths,
    widths.map(() => false),
    [],
    count,
  );
  applyPrintPlan(sheet, plan, columns, rows, count);
}

export { describePeriod as printedPeriod } from './describe-period.js';

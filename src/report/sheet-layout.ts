// The look every report sheet shares, for the streaming and the in-memory writer alike: a bold header row on
// a dark fill, frozen, with an autofilter over the data; one named font (Calibri) on every style; headers
// aligned like their column (right over numbers); printed as print-layout.ts says, the header row repeated. One shared style object per column format so exceljs files each cell's style without rebuilding it.
import type { Alignment, Cell, Font, Row, Style, Worksheet } from 'exceljs';
import { DEFAULT_WIDTH, NUM_FMT } from './cell-values.js';
import { PRINT_SETUP } from './print-layout.js';
import type { CellFormat, ColumnSpec } from './report-definition.js';

/** The one font family of every cell (exceljs's default font is Calibri 11: body and header match). */
export const FONT: Partial<Font> = Object.freeze({ name: 'Calibri', family: 2, size: 11 });

export const HEADER_STYLE: Partial<Style> = Object.freeze({
  font: { ...FONT, bold: true, color: { argb: 'FFFFFFFF' } },
  fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E79' } },
  alignment: { vertical: 'middle', wrapText: true },
  border: { bottom: { style: 'thin', color: { argb: 'FF000000' } } },
}) as Partial<Style>;

export const NOTE_STYLE: Partial<Style> = Object.freeze({
  font: { ...FONT, italic: true, color: { argb: 'FF7F7F7F' } },
}) as Partial<Style>;

/** The sheet options that freeze the header row (passed when the sheet is created). */
export const FROZEN_HEADER = { views: [{ state: 'frozen' as const, ySplit: 1, xSplit: 0 }] };

/** What every table sheet is created with: the frozen header and the print setup. */
export const TABLE_SHEET = { ...FROZEN_HEADER, pageSetup: PRINT_SETUP };

/** Formats whose cells are numbers that Excel aligns right, and so their header too. */
const RIGHT_ALIGNED = new Set<CellFormat>([
  'integer',
  'id',
  'number',
  'decimal3',
  'percent',
  'datetime',
  'date',
  'duration',
]);

/** The horizontal alignment of a column's header and cells: the column's own, else from its format. */
export function columnAlignment(column: ColumnSpec): 'left' | 'right' {
  return column.align ?? (RIGHT_ALIGNED.has(column.format) ? 'right' : 'left');
}

const styles = new Map<CellFormat, Partial<Style>>();

/** One style object per format, shared by every cell of that format (exceljs caches styles by identity). */
export function formatStyle(format: CellFormat): Partial<Style> {
  let style = styles.get(format);
  if (!style) {
    const numFmt = NUM_FMT[format];
    style = numFmt === undefined ? { font: FONT } : { numFmt, font: FONT };
    styles.set(format, style);
  }
  return style;
}

const headerStyles = new Map<string, Partial<Style>>();

/** The header style of a column: HEADER_STYLE aligned like the column. */
export function headerStyle(column: ColumnSpec): Partial<Style> {
  const horizontal = columnAlignment(column);
  let style = headerStyles.get(horizontal);
  if (!style) {
    const alignment: Partial<Alignment> = { ...HEADER_STYLE.alignment, horizontal };
    style = { ...HEADER_STYLE, alignment };
    headerStyles.set(horizontal, style);
  }
  return style;
}

/** Sets the column widths and writes the styled header row (row 1), repeated on every printed page. */
export function writeHeader(sheet: Worksheet, columns: readonly ColumnSpec[]): Row {
  sheet.columns = columns.map((c) => ({ key: c.key, width: columnWidth(c) }));
  const row = sheet.addRow(columns.map((c) => c.header));
  row.height = 30;
  row.eachCell((cell: Cell) => {
    cell.style = headerStyle(columns[Number(cell.col) - 1] as ColumnSpec);
  });
  sheet.pageSetup.printTitlesRow = '1:1';
  return row;
}

/** The autofilter over the header and `dataRows` rows below it. */
export function setAutoFilter(sheet: Worksheet, columnCount: number, dataRows: number): void {
  sheet.autoFilter = {
    from: { row: 1, column: 1 },
    to: { row: 1 + Math.max(dataRows, 0), column: Math.max(columnCount, 1) },
  };
}

/** A column's width in characters before its rows are known: the definition's, else from its format and header. */
export function columnWidth(column: ColumnSpec): number {
  if (column.width !== undefined) return written(Math.max(column.width, headerWidth(column.header)));
  return written(Math.min(60, Math.max(DEFAULT_WIDTH[column.format], headerWidth(column.header))));
}

/** exceljs leaves a column of width 9 (its default) out of the sheet's <cols>: 9 is written as 9.1. */
function written(width: number): number {
  return width === 9 ? 9.1 : width;
}

/** Widest a column gets from its content (a longer text is cut on screen, whole in the cell). */
export const MAX_CONTENT_WIDTH = 50;

/**
 * A column's width from its content: the widest shown value (at most the definition's width, or
 * MAX_CONTENT_WIDTH) but never narrower than its header needs on two lines (the header row is two lines high).
 */
export function contentWidth(column: ColumnSpec, widestValue: number): number {
  const cap = column.width ?? MAX_CONTENT_WIDTH;
  return written(Math.max(headerWidth(column.header), Math.min(cap, widestValue + 2), 6));
}

/** The width a header needs to fit on at most two lines, wrapped at spaces (its longest word whole). */
export function headerWidth(header: string): number {
  const words = header.split(/\s+/).filter((w) => w.length > 0);
  const longest = Math.max(0, ...words.map((w) => w.length));
  for (let width = longest; width < header.length; width += 1)
    if (wrappedLines(words, width) <= 2) return width + 2;
  return header.length + 2;
}

function wrappedLines(words: string[], width: number): number {
  let lines = 0;
  let used = width + 1;
  for (const word of words) {
    if (used + 1 + word.length > width) {
      lines += 1;
      used = word.length;
    } else used += 1 + word.length;
  }
  return lines;
}

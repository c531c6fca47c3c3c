// The look every report sheet shares, for the streaming and the in-memory writer alike: a bold header row on
// a dark fill, frozen, with an autofilter over the data; one named font (Calibri) on every style; headers
// aligned like their column (right over numbers); text wrapped in its column, every cell at the top of its row;
// printed as print-layout.ts says, the header row repeated. One shared style object per format and alignment,
// so that exceljs files each cell's style without rebuilding it.
import type { Alignment, Cell, Font, Row, Style, Worksheet } from 'exceljs';
import { DEFAULT_WIDTH, NUM_FMT } from './cell-values.js';
import { PRINT_SETUP } from './print-layout.js';
import type { CellFormat, ColumnSpec } from './report-definition.js';
import { charactersFor, ROW_POINTS, rowPointsFor, wrappedLines } from './text-lines.js';

/** The one font family of every cell (exceljs's default font is Calibri 11: body and header match). */
export const FONT: Partial<Font> = Object.freeze({ name: 'Calibri', family: 2, size: 11 });

export const HEADER_STYLE: Partial<Style> = Object.freeze({
  font: { ...FONT, bold: true, color: { argb: 'FFFFFFFF' } },
  fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E79' } },
  alignment: { vertical: 'middle', wrapText: true },
  border: { bottom: { style: 'thin', color: { argb: 'FF000000' } } },
}) as Partial<Style>;

/** A note (no data, a footnote): one sentence across the printed page, wrapped there, from the top of its row. */
export const NOTE_STYLE: Partial<Style> = Object.freeze({
  font: { ...FONT, italic: true, color: { argb: 'FF595959' } },
  alignment: { wrapText: true, vertical: 'top', horizontal: 'left' },
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
  'countChange',
  'percentChange',
  'pointsChange',
  'msChange',
  'decimal3Change',
]);

/** Formats whose cells hold text (a yes/no is the text yes or no): they wrap in their column, never run over the next. */
export const TEXT_FORMATS: ReadonlySet<CellFormat> = new Set<CellFormat>(['text', 'code', 'boolean']);

/** The horizontal alignment of a column's header and cells: the column's own, else from its format. */
export function columnAlignment(column: Pick<ColumnSpec, 'align' | 'format'>): 'left' | 'right' {
  return column.align ?? (RIGHT_ALIGNED.has(column.format) ? 'right' : 'left');
}

const styles = new Map<string, Partial<Style>>();

/**
 * One style object per format and alignment, shared by every such cell (exceljs caches styles by identity):
 * its number format, the font, the top of its row (a row grown for a wrapped neighbour reads from its top),
 * and for text, wrapped inside its column (a text wider than its column never runs over the next cell).
 */
export function formatStyle(format: CellFormat, align?: 'left' | 'right'): Partial<Style> {
  const key = `${format}|${align ?? ''}`;
  let style = styles.get(key);
  if (!style) {
    const numFmt = NUM_FMT[format];
    const alignment: Partial<Alignment> = { vertical: 'top' };
    if (TEXT_FORMATS.has(format)) alignment.wrapText = true;
    if (align !== undefined) alignment.horizontal = align;
    // a right-aligned value keeps a character's room before the next column's text (else they read as one)
    if (columnAlignment({ format, align }) === 'right')
      Object.assign(alignment, { horizontal: 'right', indent: 1 });
    style = numFmt === undefined ? { font: FONT, alignment } : { numFmt, font: FONT, alignment };
    styles.set(key, style);
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
    if (horizontal === 'right') alignment.indent = 1;
    style = { ...HEADER_STYLE, alignment };
    headerStyles.set(horizontal, style);
  }
  return style;
}

/** The header row's height: two lines, more when a header needs them at its column's width. */
export function headerPoints(columns: readonly ColumnSpec[], widths: readonly number[]): number {
  const lines = Math.max(
    2,
    ...columns.map((c, i) => wrappedLines(c.header, roomOf(c, widths[i] ?? 9), true)),
  );
  return rowPointsFor(lines) ?? ROW_POINTS;
}

/** The width a column's text wraps in: a right-aligned one loses its indent (INDENT_CHARACTERS). */
export function roomOf(column: Pick<ColumnSpec, 'align' | 'format'>, width: number): number {
  return columnAlignment(column) === 'right' ? width - INDENT_CHARACTERS : width;
}

/** LibreOffice indents a right-aligned value by about 10.5 pt (indent 1): a character and a half. */
const INDENT_CHARACTERS = 1.5;

/** Sets the column widths and writes the styled header row (row 1), repeated on every printed page. */
export function writeHeader(sheet: Worksheet, columns: readonly ColumnSpec[]): Row {
  sheet.columns = columns.map((c) => ({ key: c.key, width: columnWidth(c) }));
  const row = sheet.addRow(columns.map((c) => c.header));
  row.height = headerPoints(
    columns,
    columns.map((c) => columnWidth(c)),
  );
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
export function written(width: number): number {
  return width === 9 ? 9.1 : width;
}

/** Widest a column gets from its content (a longer text wraps). */
export const MAX_CONTENT_WIDTH = 50;

/**
 * A column's width from its content: the widest shown value (in characters, measured in the sheets' font; at
 * most the definition's width, or MAX_CONTENT_WIDTH) but never narrower than its header needs on two lines.
 */
export function contentWidth(column: ColumnSpec, widestValue: number): number {
  const cap = column.width ?? MAX_CONTENT_WIDTH;
  return written(Math.max(headerWidth(column.header), Math.min(cap, Math.ceil(widestValue) + 2), 6));
}

/** The width a header needs to fit on at most two lines (bold, wrapped at spaces, its longest word whole). */
export function headerWidth(header: string): number {
  const words = header.split(/\s+/).filter((w) => w.length > 0);
  const longest = Math.ceil(Math.max(1, ...words.map((w) => charactersFor(w, true))));
  // two characters more: a right-aligned header is indented by one (sheet-layout's formatStyle)
  for (let width = longest; width < longest + 80; width += 1)
    if (wrappedLines(header, width, true) <= 2) return width + 2;
  return Math.ceil(charactersFor(header, true)) + 2;
}

// The look every report sheet shares, for the streaming and the in-memory writer alike: a bold header row on
// a dark fill, frozen, with an autofilter over the data; column widths from the format or the definition;
// one shared style object per column so exceljs files each cell's style without rebuilding it.
import type { Cell, Row, Style, Worksheet } from 'exceljs';
import { DEFAULT_WIDTH, NUM_FMT } from './cell-values.js';
import type { CellFormat, ColumnSpec } from './report-definition.js';

export const HEADER_STYLE: Partial<Style> = Object.freeze({
  font: { bold: true, color: { argb: 'FFFFFFFF' } },
  fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E79' } },
  alignment: { vertical: 'middle', wrapText: true },
  border: { bottom: { style: 'thin', color: { argb: 'FF000000' } } },
}) as Partial<Style>;

export const NOTE_STYLE: Partial<Style> = Object.freeze({
  font: { italic: true, color: { argb: 'FF7F7F7F' } },
}) as Partial<Style>;

/** The sheet options that freeze the header row (passed when the sheet is created). */
export const FROZEN_HEADER = { views: [{ state: 'frozen' as const, ySplit: 1, xSplit: 0 }] };

const styles = new Map<CellFormat, Partial<Style>>();

/** One style object per format, shared by every cell of that format (exceljs caches styles by identity). */
export function formatStyle(format: CellFormat): Partial<Style> {
  let style = styles.get(format);
  if (!style) {
    const numFmt = NUM_FMT[format];
    style = numFmt === undefined ? {} : { numFmt };
    styles.set(format, style);
  }
  return style;
}

/** Sets the column widths and writes the styled header row (row 1). */
export function writeHeader(sheet: Worksheet, columns: readonly ColumnSpec[]): Row {
  sheet.columns = columns.map((c) => ({ key: c.key, width: columnWidth(c) }));
  const row = sheet.addRow(columns.map((c) => c.header));
  row.height = 30;
  row.eachCell((cell: Cell) => {
    cell.style = HEADER_STYLE;
  });
  return row;
}

/** The autofilter over the header and `dataRows` rows below it. */
export function setAutoFilter(sheet: Worksheet, columnCount: number, dataRows: number): void {
  sheet.autoFilter = {
    from: { row: 1, column: 1 },
    to: { row: 1 + Math.max(dataRows, 0), column: Math.max(columnCount, 1) },
  };
}

/** A column's width in characters: the definition's, else from its format and header. */
export function columnWidth(column: ColumnSpec): number {
  if (column.width !== undefined) return column.width;
  return Math.min(60, Math.max(DEFAULT_WIDTH[column.format], column.header.length + 2));
}

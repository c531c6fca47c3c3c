// Writes a report's sheets into a workbook (streaming or in memory, behind WorkbookTarget): the header, then
// the rows chunk by chunk, each cell converted for its column's format; past Excel's row limit the sheet
// continues on "<name> (2)" with the header repeated; a sheet without rows says so in its first data row;
// in-memory sheets get their column widths from the widest shown value once their rows are written.
import type { Alignment, Style, Worksheet } from 'exceljs';
import { EtlError } from '../errors.js';
import { type CellOutput, createZoneClock, shownLength, toCellValue } from './cell-values.js';
import { fitCellText, type SheetLimits, sheetName } from './excel-limits.js';
import { fitPrintWidth, headerFooter, type PrintHeading } from './print-layout.js';
import type { CellFormat, CellInput, ColumnSpec, SheetSource } from './report-definition.js';
import {
  columnAlignment,
  contentWidth,
  formatStyle,
  NOTE_STYLE,
  setAutoFilter,
  writeHeader,
} from './sheet-layout.js';

/** The workbook the rows go to: how sheets are made and finished, and what to do after each chunk. */
export interface WorkbookTarget {
  addSheet(name: string): Worksheet;
  /** Called once per sheet after its last row (streaming: commits it). */
  finishSheet(sheet: Worksheet): Promise<void>;
  /** Streaming: commits the rows just added and waits until the zip stream has taken them. */
  afterRows(sheet: Worksheet): Promise<void>;
  /** Streaming: the header row is committed (written out) at once. */
  commitRows: boolean;
  /**
   * Adds one data row after the rows already written (cells in column order, with their formats; `wraps[i]`:
   * column i is a long text that wraps). The `cells` array is reused for the next row: copy it to keep it.
   */
  addRow(
    sheet: Worksheet,
    cells: readonly CellOutput[],
    formats: readonly CellFormat[],
    wraps: readonly boolean[],
  ): void;
}

/** Adds a data row the exceljs way (a Row with a Cell per value, each with its format's shared style). */
export function addStyledRow(
  sheet: Worksheet,
  cells: readonly CellOutput[],
  formats: readonly CellFormat[],
): void {
  const row = sheet.addRow([...cells]);
  for (let i = 0; i < cells.length; i += 1) {
    if (cells[i] === null) continue;
    const style = formatStyle(formats[i] as CellFormat);
    if (Object.keys(style).length > 0) row.getCell(i + 1).style = style;
  }
}

export interface WriteSheetsOptions {
  tz: string;
  limits: SheetLimits;
  onProgress?: ((p: { sheet: string; rows: number }) => void) | undefined;
  signal?: AbortSignal | undefined;
  /** What each printed page's header names (the report and its period); none: no header or footer. */
  heading?: PrintHeading | undefined;
}

export interface WrittenSheet {
  name: string;
  /** Data rows (the header and a "no data" note are not counted). */
  rows: number;
  /** The source sheet this part belongs to (a continuation has the same source). */
  source: string;
}

export const NO_DATA_NOTE = 'No data in this period';

export async function writeSheets(
  target: WorkbookTarget,
  sources: readonly SheetSource[],
  options: WriteSheetsOptions,
): Promise<WrittenSheet[]> {
  const localTime = createZoneClock(options.tz);
  const fitText = (text: string) => fitCellText(text, options.limits.maxCellChars);
  const taken = new Set<string>();
  const written: WrittenSheet[] = [];

  for (const source of sources) {
    checkAborted(options.signal);
    const formats = source.columns.map((c) => c.format);
    const wraps = source.columns.map((c) => c.wrap === true);
    let part = 1;
    let rowsInPart = 0;
    let sheet: Worksheet;
    let current: WrittenSheet;
    const open = () => {
      const name = sheetName(source.name, taken, part === 1 ? '' : ` (${part})`);
      taken.add(name);
      sheet = target.addSheet(name);
      if (options.heading) Object.assign(sheet.headerFooter, headerFooter(options.heading));
      const header = writeHeader(sheet, source.columns);
      if (target.commitRows) header.commit();
      current = { name, rows: 0, source: source.name };
      written.push(current);
      rowsInPart = 0;
    };
    // widest shown value per column (in-memory sheets only: a streamed sheet's widths are written first)
    const widest = source.columns.map(() => 0);
    const close = async () => {
      if (source.autoFilter !== false) setAutoFilter(sheet, source.columns.length, rowsInPart);
      if (!target.commitRows) fitColumns(sheet, source.columns, widest);
      // the header, the rows (or the note of an empty sheet)
      fitPrintWidth(sheet, source.columns, 1 + Math.max(rowsInPart, 1));
      await target.finishSheet(sheet);
    };
    open();
    let rowIndex = 0;
    // one array for every row of the source: the target takes the values during addRow, never the array
    const cells: CellOutput[] = new Array(formats.length);
    for await (const chunk of source.rows) {
      checkAborted(options.signal);
      for (const values of chunk) {
        if (rowsInPart >= options.limits.maxDataRows) {
          await close();
          part += 1;
          open();
        }
        const rowFormat = source.rowFormats?.formats[rowIndex];
        const cellFormats =
          rowFormat === undefined
            ? formats
            : formats.map((f, i) => (source.rowFormats?.column === i ? rowFormat : f));
        for (let i = 0; i < cellFormats.length; i += 1)
          cells[i] = toCellValue(values[i] as CellInput, cellFormats[i] as CellFormat, localTime, fitText);
        if (!target.commitRows)
          for (let i = 0; i < cells.length; i += 1)
            widest[i] = Math.max(widest[i] ?? 0, shownLength(cells[i] as CellOutput, cellFormats[i]!));
        target.addRow(sheet!, cells, cellFormats, wraps);
        rowsInPart += 1;
        current!.rows += 1;
        rowIndex += 1;
      }
      await target.afterRows(sheet!);
      options.onProgress?.({ sheet: current!.name, rows: current!.rows });
    }
    if (rowIndex === 0) {
      const note = sheet!.addRow([source.emptyNote ?? NO_DATA_NOTE]);
      note.getCell(1).style = NOTE_STYLE;
      if (target.commitRows) note.commit();
    }
    await close();
  }
  return written;
}

/**
 * Column widths from the content; the cells of a column with its own alignment aligned so; a text longer
 * than its column wraps inside it (printed whole, never cut at the column's edge or spilling over another).
 */
function fitColumns(sheet: Worksheet, columns: readonly ColumnSpec[], widest: readonly number[]): void {
  columns.forEach((column, i) => {
    const sheetColumn = sheet.getColumn(i + 1);
    const width = contentWidth(column, widest[i] ?? 0);
    sheetColumn.width = width;
    const horizontal = column.align === undefined ? undefined : columnAlignment(column);
    // a new style object: the cells share theirs by format (formatStyle), and exceljs's `cell.alignment = ...`
    // writes into it, which aligned every text cell of the workbook (the KPI names too)
    const restyled = [new Map<object, Partial<Style>>(), new Map<object, Partial<Style>>()];
    sheetColumn.eachCell((cell, rowNumber) => {
      if (rowNumber === 1) return;
      const wrap = typeof cell.value === 'string' && cell.value.length > width - 2;
      if (horizontal === undefined && !wrap) return;
      const shared = restyled[wrap ? 1 : 0]!;
      let style = shared.get(cell.style);
      if (!style) {
        const alignment: Partial<Alignment> = { ...cell.style.alignment };
        if (horizontal) alignment.horizontal = horizontal;
        if (wrap) Object.assign(alignment, { wrapText: true, vertical: 'top' });
        style = { ...cell.style, alignment };
        shared.set(cell.style, style);
      }
      cell.style = style;
    });
  });
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new EtlError('report.aborted', 'The report was stopped before it was complete', {
      cause: signal.reason,
    });
}

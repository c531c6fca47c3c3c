// Writes a report's sheets into a workbook (streaming or in memory, behind WorkbookTarget): the header, then
// the rows chunk by chunk, each cell converted for its column's format; past Excel's row limit the sheet
// continues on "<name> (2)" with the header repeated. The print rules (docs/reports.md) hold for every sheet:
// text wraps inside its column and each row is as tall as its tallest cell's wrapped text (nothing prints
// over the row below, nothing runs into the next column); the columns are fitted to the page (print-layout.ts);
// a sheet without rows says so in one note across its first page, and a table's footnotes follow it.
import type { Worksheet } from 'exceljs';
import { EtlError } from '../errors.js';
import { type CellOutput, createZoneClock, shownLength, toCellValue } from './cell-values.js';
import { fitCellText, type SheetLimits, sheetName } from './excel-limits.js';
import {
  applyPrintPlan,
  headerFooter,
  type PrintHeading,
  type PrintPlan,
  planPrint,
  printedColumnCount,
} from './print-layout.js';
import type { CellFormat, CellInput, ColumnSpec, SheetSource } from './report-definition.js';
import {
  columnWidth,
  contentWidth,
  formatStyle,
  headerPoints,
  headerWidth,
  NOTE_STYLE,
  roomOf,
  setAutoFilter,
  TEXT_FORMATS,
  writeHeader,
  written as writtenWidth,
} from './sheet-layout.js';
import { charactersFor, rowPointsFor, wrappedLines } from './text-lines.js';

/** How a cell looks: its format, and its column's own alignment (undefined: the format's). */
export interface CellLook {
  format: CellFormat;
  align: 'left' | 'right' | undefined;
}

/** The workbook the rows go to: how sheets are made and finished, and what to do after each chunk. */
export interface WorkbookTarget {
  addSheet(name: string): Worksheet;
  /** Called once per sheet after its last row (streaming: commits it). */
  finishSheet(sheet: Worksheet): Promise<void>;
  /** Streaming: commits the rows just added and waits until the zip stream has taken them. */
  afterRows(sheet: Worksheet): Promise<void>;
  /** Streaming: rows are written out as they come (column widths are fixed before the first row). */
  commitRows: boolean;
  /**
   * Adds one data row after the rows already written (cells in column order, with their looks), `points` high
   * (undefined: one line). The `cells` array is reused for the next row: copy it to keep it.
   */
  addRow(
    sheet: Worksheet,
    cells: readonly CellOutput[],
    looks: readonly CellLook[],
    points: number | undefined,
  ): void;
}

/** Adds a data row the exceljs way (a Row with a Cell per value, each with its look's shared style). */
export function addStyledRow(
  sheet: Worksheet,
  cells: readonly CellOutput[],
  looks: readonly CellLook[],
  points: number | undefined,
): void {
  const row = sheet.addRow([...cells]);
  if (points !== undefined) row.height = points;
  for (let i = 0; i < cells.length; i += 1) {
    if (cells[i] === null) continue;
    const look = looks[i] as CellLook;
    row.getCell(i + 1).style = formatStyle(look.format, look.align);
  }
}

export interface WriteSheetsOptions {
  tz: string;
  limits: SheetLimits;
  onProgress?: ((p: { sheet: string; rows: number }) => void) | undefined;
  signal?: AbortSignal | undefined;
  /** What each printed page's header and footer say (the report, its period, the last sync); none: nothing. */
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
  const taken = new Set<string>();
  const written: WrittenSheet[] = [];
  for (const source of sources) {
    checkAborted(options.signal);
    await new TableWriter(target, source, options, taken, written).write();
  }
  return written;
}

/** One source sheet written into one sheet or more (past Excel's row limit). */
class TableWriter {
  private readonly localTime: (t: number) => number;
  private readonly looks: CellLook[];
  private readonly text: boolean[];
  private part = 0;
  private rowsInPart = 0;
  private sheet!: Worksheet;
  private current!: WrittenSheet;
  private plan!: PrintPlan;
  /** The width each column's text wraps in (a right-aligned column's less its indent). */
  private rooms: number[] = [];
  /** Widest shown value per column, in characters (in-memory sheets: their widths follow their content). */
  private readonly widest: number[];

  constructor(
    private readonly target: WorkbookTarget,
    private readonly source: SheetSource,
    private readonly options: WriteSheetsOptions,
    private readonly taken: Set<string>,
    private readonly written: WrittenSheet[],
  ) {
    this.localTime = createZoneClock(options.tz);
    this.looks = source.columns.map((c) => ({ format: c.format, align: c.align }));
    // a column left off paper does not make the printed rows taller
    this.text = source.columns.map((c) => TEXT_FORMATS.has(c.format) && c.print !== false);
    this.widest = source.columns.map(() => 0);
  }

  async write(): Promise<void> {
    const { source, options } = this;
    const fitText = (text: string) => fitCellText(text, options.limits.maxCellChars);
    this.open();
    let rowIndex = 0;
    // one array for every row of the source: the target takes the values during addRow, never the array
    const cells: CellOutput[] = new Array(this.looks.length);
    for await (const chunk of source.rows) {
      checkAborted(options.signal);
      for (const values of chunk) {
        if (this.rowsInPart >= options.limits.maxDataRows) {
          await this.close();
          this.open();
        }
        const own = source.cellFormats?.[rowIndex];
        const looks =
          own === undefined ? this.looks : this.looks.map((l, i) => ({ ...l, format: own[i] ?? l.format }));
        for (let i = 0; i < looks.length; i += 1)
          cells[i] = toCellValue(values[i] as CellInput, looks[i]!.format, this.localTime, fitText);
        this.add(cells, looks);
        rowIndex += 1;
      }
      await this.target.afterRows(this.sheet);
      options.onProgress?.({ sheet: this.current.name, rows: this.current.rows });
    }
    await this.close(rowIndex === 0);
  }

  private open(): void {
    const { source, target, options } = this;
    this.part += 1;
    const name = sheetName(source.name, this.taken, this.part === 1 ? '' : ` (${this.part})`);
    this.taken.add(name);
    this.sheet = target.addSheet(name);
    if (options.heading) Object.assign(this.sheet.headerFooter, headerFooter(options.heading));
    const header = writeHeader(this.sheet, source.columns);
    // a streamed sheet's widths are written before its rows: planned now, from the definition
    if (target.commitRows) this.applyWidths(source.columns.map(columnWidth), header);
    if (target.commitRows) header.commit();
    this.current = { name, rows: 0, source: source.name };
    this.written.push(this.current);
    this.rowsInPart = 0;
  }

  /** Plans the print from `widths`, sets the planned widths and the header row's height. */
  private applyWidths(widths: number[], header = this.sheet.getRow(1)): void {
    const { columns } = this.source;
    const least = columns.map((c) => headerWidth(c.header));
    this.plan = planPrint(widths, narrowable(columns, widths), least, printedColumnCount(columns));
    this.plan.widths.forEach((width, i) => {
      this.sheet.getColumn(i + 1).width = writtenWidth(width);
    });
    this.rooms = this.plan.widths.map((width, i) => roomOf(columns[i]!, width));
    header.height = headerPoints(columns, this.plan.widths);
  }

  private add(cells: CellOutput[], looks: readonly CellLook[]): void {
    const streamed = this.target.commitRows;
    if (!streamed)
      for (let i = 0; i < cells.length; i += 1)
        this.widest[i] = Math.max(this.widest[i] ?? 0, shownWidth(cells[i] as CellOutput, looks[i]!.format));
    const points = streamed ? rowPoints(cells, this.rooms, this.text) : undefined;
    this.target.addRow(this.sheet, cells, looks, points);
    this.rowsInPart += 1;
    this.current.rows += 1;
  }

  private async close(empty = false): Promise<void> {
    const { source, target, sheet } = this;
    const columns = source.columns;
    if (!target.commitRows) {
      this.applyWidths(columns.map((c, i) => contentWidth(c, this.widest[i] ?? 0)));
      fitRowHeights(sheet, this.rowsInPart, this.rooms, this.text);
    }
    // an empty sheet prints one page: the columns of its first page, the note across them
    const pageColumns = this.plan.across
      ? 1 + (this.plan.pages[0]?.length ?? 0)
      : printedColumnCount(columns);
    const span = Math.max(1, pageColumns);
    const notes = empty ? [source.emptyNote ?? NO_DATA_NOTE] : [...(source.footnotes ?? [])];
    let last = 1 + this.rowsInPart;
    if (notes.length > 0 && (empty || !target.commitRows)) {
      if (!empty) last += 1; // a blank row between the table and its footnotes
      for (const note of notes) {
        last += 1;
        writeNote(sheet, last, note, this.plan.widths.slice(0, span), target.commitRows);
      }
    }
    if (source.autoFilter !== false) setAutoFilter(sheet, columns.length, this.rowsInPart);
    applyPrintPlan(sheet, this.plan, columns, last, empty ? span : printedColumnCount(columns));
    await target.finishSheet(sheet);
  }
}

/** The text columns a sheet too wide for its page may narrow (their text wraps): long texts. */
function narrowable(columns: readonly ColumnSpec[], widths: readonly number[]): boolean[] {
  return columns.map((c, i) => TEXT_FORMATS.has(c.format) && (c.wrap === true || (widths[i] ?? 0) >= 30));
}

/** A cell's shown width in characters of the column's unit (text measured in the sheets' font). */
function shownWidth(value: CellOutput, format: CellFormat): number {
  if (typeof value !== 'string') return shownLength(value, format);
  const longest =
    value.length <= 200
      ? value.split('\n').reduce((a, b) => (b.length > a.length ? b : a))
      : value.slice(0, 200);
  return charactersFor(longest) - 1;
}

/** The height of a row whose text cells wrap in columns of `widths` (undefined: one line). */
function rowPoints(
  cells: readonly CellOutput[],
  widths: readonly number[],
  text: readonly boolean[],
): number | undefined {
  let lines = 1;
  for (let i = 0; i < cells.length; i += 1) {
    const value = cells[i];
    if (text[i] && typeof value === 'string' && value.length > 0)
      lines = Math.max(lines, wrappedLines(value, widths[i] ?? 9));
  }
  return rowPointsFor(lines);
}

/** Each data row of an in-memory sheet as tall as its wrapped text, once its widths are known. */
function fitRowHeights(
  sheet: Worksheet,
  rows: number,
  widths: readonly number[],
  text: readonly boolean[],
): void {
  const cells: CellOutput[] = new Array(widths.length);
  for (let r = 2; r <= rows + 1; r += 1) {
    const row = sheet.getRow(r);
    for (let i = 0; i < widths.length; i += 1) {
      const value = row.getCell(i + 1).value;
      cells[i] = typeof value === 'string' ? value : null;
    }
    const points = rowPoints(cells, widths, text);
    if (points !== undefined) row.height = points;
  }
}

/** A note in row `at`: one cell merged across the first page's columns, wrapped there, its row as tall as it. */
function writeNote(
  sheet: Worksheet,
  at: number,
  note: string,
  widths: readonly number[],
  commit: boolean,
): void {
  const row = sheet.getRow(at);
  row.getCell(1).value = note;
  row.getCell(1).style = NOTE_STYLE;
  const span = widths.reduce((sum, w) => sum + w, 0);
  row.height = rowPointsFor(wrappedLines(note, span)) ?? 15;
  if (widths.length > 1) sheet.mergeCells(at, 1, at, widths.length);
  if (commit) row.commit();
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new EtlError('report.aborted', 'The report was stopped before it was complete', {
      cause: signal.reason,
    });
}

// The cover page of a workbook written in memory (the summary's scorecard): its blocks one under the other on
// the first sheet, printed on one A4 portrait page: each small table with its title, header and footnotes,
// each chart as its PNG, each note as one wrapped sentence across the page. The rows are as tall as their
// wrapped text (text-lines.ts) and the scale fits the page's width and height, never under MIN_PRINT_SCALE.
import type { Workbook, Worksheet } from 'exceljs';
import { createZoneClock, toCellValue } from './cell-values.js';
import { fitCellText } from './excel-limits.js';
import {
  columnPoints,
  headerFooter,
  MIN_PRINT_SCALE,
  PRINT_MARGINS,
  type PrintHeading,
} from './print-layout.js';
import { CHART_HEIGHT, CHART_WIDTH } from './render-chart-svg.js';
import type { CellInput, ColumnSpec, CoverPage, SheetSource } from './report-definition.js';
import { contentWidth, FONT, formatStyle, headerStyle, NOTE_STYLE, roomOf, written } from './sheet-layout.js';
import { CHARACTER_POINTS, ROW_POINTS, rowPointsFor, wrappedLines } from './text-lines.js';

/** A4 portrait less the side margins, and less the top and bottom margins, in points. */
const PAGE_WIDTH_PT = (595 - (PRINT_MARGINS.left + PRINT_MARGINS.right) * 72) * 0.96;
const PAGE_HEIGHT_PT = (842 - (PRINT_MARGINS.top + PRINT_MARGINS.bottom) * 72) * 0.96;
/** A chart's width and height in points at 100 % (96 px an inch). */
const CHART_WIDTH_PT = (CHART_WIDTH * 72) / 96;
const CHART_HEIGHT_PT = (CHART_HEIGHT * 72) / 96;
/** The first column (names, labels) and the others (figures) are at most this wide. */
const FIRST_COLUMN_MOST = 40;
const OTHER_COLUMN_MOST = 16;

const TITLE_STYLE = { font: { ...FONT, bold: true, size: 12 } };

/** Adds the cover sheet: `charts` are the PNGs of its chart blocks, in order. */
export function addCoverSheet(
  workbook: Workbook,
  cover: CoverPage,
  charts: readonly Buffer[],
  tz: string,
  heading: PrintHeading | undefined,
): Worksheet {
  const sheet = workbook.addWorksheet(cover.name, {
    pageSetup: {
      paperSize: 9,
      orientation: 'portrait',
      fitToPage: false,
      margins: PRINT_MARGINS,
      horizontalCentered: false,
    },
    ...(heading ? { headerFooter: headerFooter(heading) } : {}),
  });
  const tables = cover.blocks.flatMap((b) => ('table' in b ? [b.table] : []));
  const widths = gridWidths(tables);
  // the grid at least as wide as a chart: the print area holds the chart's right edge too
  const short = CHART_WIDTH_PT + 8 - widths.reduce((sum, w) => sum + columnPoints(w), 0);
  if (short > 0) widths[0] = (widths[0] ?? 8) + Math.ceil(short / CHARACTER_POINTS);
  sheet.columns = widths.map((width) => ({ width: written(width) }));
  const page = widths.reduce((sum, w) => sum + w, 0);
  const local = createZoneClock(tz);
  let next = 1;
  let chart = 0;
  for (const block of cover.blocks) {
    let last: number;
    if ('note' in block) last = writeNote(sheet, next, block.note, widths, page);
    else if ('chart' in block) last = placeChart(workbook, sheet, next, charts[chart++]);
    else last = writeTable(sheet, next, block.table, widths, local);
    next = last + 2; // a blank row between blocks
  }
  const last = Math.max(1, next - 2);
  const pointsWide = widths.reduce((sum, w) => sum + columnPoints(w), 0);
  let pointsHigh = 0;
  for (let r = 1; r <= last; r += 1) pointsHigh += sheet.getRow(r).height ?? ROW_POINTS;
  const fits = Math.floor(100 * Math.min(PAGE_WIDTH_PT / pointsWide, PAGE_HEIGHT_PT / pointsHigh));
  sheet.pageSetup.scale = Math.max(MIN_PRINT_SCALE, Math.min(100, fits));
  sheet.pageSetup.printArea = `A$1:${String.fromCharCode(64 + widths.length)}$${last}`;
  return sheet;
}

/** The sheet's columns: the first as wide as the tables' first columns need, the others as their figures. */
function gridWidths(tables: readonly SheetSource[]): number[] {
  const count = Math.max(2, ...tables.map((t) => t.columns.length));
  const widths = Array.from({ length: count }, () => 8);
  for (const table of tables) {
    const rows = (table.rows as CellInput[][][]).flat();
    table.columns.forEach((column, i) => {
      const shown = (v: CellInput) =>
        typeof v === 'string' ? v.length : v === null || v === undefined ? 0 : 10;
      const widest = Math.max(0, ...rows.map((r) => shown(r[i])));
      const most = i === 0 ? FIRST_COLUMN_MOST : OTHER_COLUMN_MOST;
      widths[i] = Math.max(widths[i] ?? 0, Math.min(most, contentWidth({ ...column, width: most }, widest)));
    });
  }
  return widths;
}

/** A table from row `at`: its title, header, rows (each as tall as its wrapped text), footnotes; its last row. */
function writeTable(
  sheet: Worksheet,
  at: number,
  table: SheetSource,
  widths: readonly number[],
  local: (t: number) => number,
): number {
  let row = at;
  sheet.getRow(row).getCell(1).value = table.name;
  sheet.getRow(row).getCell(1).style = TITLE_STYLE;
  row += 1;
  const header = sheet.getRow(row);
  table.columns.forEach((column, i) => {
    header.getCell(i + 1).value = column.header;
    header.getCell(i + 1).style = headerStyle(column);
  });
  const rooms = widths.map((w, i) => (table.columns[i] ? roomOf(table.columns[i]!, w) : w));
  header.height = linesHigh(
    table.columns.map((c) => c.header),
    rooms,
    true,
  );
  const rows = (table.rows as CellInput[][][]).flat();
  rows.forEach((values, r) => {
    row += 1;
    const line = sheet.getRow(row);
    const texts: string[] = [];
    table.columns.forEach((column: ColumnSpec, i) => {
      const format = table.cellFormats?.[r]?.[i] ?? column.format;
      const value = toCellValue(values[i], format, local, (text) => fitCellText(text, 32_767));
      const cell = line.getCell(i + 1);
      cell.value = value;
      cell.style = formatStyle(format, column.align);
      texts.push(typeof value === 'string' ? value : '');
    });
    const points = linesHigh(texts, rooms, false);
    if (points !== ROW_POINTS) line.height = points;
  });
  if (rows.length === 0) row = writeNote(sheet, row + 1, table.emptyNote ?? '', widths, sum(widths));
  for (const note of table.footnotes ?? []) row = writeNote(sheet, row + 1, note, widths, sum(widths));
  return row;
}

/** A row's height for texts in columns of `widths`. */
function linesHigh(texts: readonly string[], widths: readonly number[], bold: boolean): number {
  const lines = Math.max(1, ...texts.map((t, i) => wrappedLines(t, widths[i] ?? 8, bold)));
  return rowPointsFor(lines) ?? ROW_POINTS;
}

/** One sentence in row `at`, merged across the page's columns, wrapped there; its row. */
function writeNote(
  sheet: Worksheet,
  at: number,
  note: string,
  widths: readonly number[],
  page: number,
): number {
  const row = sheet.getRow(at);
  row.getCell(1).value = note;
  row.getCell(1).style = NOTE_STYLE;
  row.height = rowPointsFor(wrappedLines(note, page)) ?? ROW_POINTS;
  sheet.mergeCells(at, 1, at, widths.length);
  return at;
}

/** The chart's PNG from row `at`, over rows as tall as the chart together; the last of them. */
function placeChart(workbook: Workbook, sheet: Worksheet, at: number, png: Buffer | undefined): number {
  if (png === undefined) return at;
  const image = workbook.addImage({ buffer: png as never, extension: 'png' });
  sheet.addImage(image, {
    tl: { col: 0, row: at - 1 },
    ext: { width: CHART_WIDTH, height: CHART_HEIGHT },
    editAs: 'oneCell',
  });
  const rows = Math.ceil(CHART_HEIGHT_PT / ROW_POINTS) + 1;
  for (let r = at; r < at + rows; r += 1) sheet.getRow(r).height = ROW_POINTS;
  return at + rows - 1;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

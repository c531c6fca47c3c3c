// Test helper: reads a generated workbook back with exceljs (the non-streaming reader, which also exposes
// views, autofilters, number formats and images) into plain header + rows per sheet.
import ExcelJS from 'exceljs';

export interface ReadSheet {
  name: string;
  header: string[];
  /** The table's rows: those under the header up to the first empty row (its footnotes follow that). */
  rows: unknown[][];
  /** Every row under the header, footnotes included. */
  allRows: unknown[][];
  sheet: ExcelJS.Worksheet;
}

export async function readWorkbook(
  path: string,
): Promise<{ workbook: ExcelJS.Workbook; sheets: ReadSheet[] }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  const sheets = workbook.worksheets.map((sheet) => {
    const all: unknown[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row) => {
      const values = (row.values as unknown[]).slice(1);
      all[row.number - 1] = values;
    });
    const [header = [], ...rows] = all;
    const width = Math.max(header.length, ...rows.map((r) => r?.length ?? 0));
    const allRows = rows.map((r) => Array.from({ length: width }, (_, i) => r?.[i] ?? null));
    const blank = allRows.findIndex((r) => r.every((v) => v === null));
    return {
      name: sheet.name,
      header: header.map(String),
      rows: (blank < 0 ? allRows : allRows.slice(0, blank)).map((r) => r.slice(0, header.length)),
      allRows,
      sheet,
    };
  });
  return { workbook, sheets };
}

/** The sheet of that name (fails the test with the names there are). */
export function sheetNamed(sheets: ReadSheet[], name: string): ReadSheet {
  const found = sheets.find((s) => s.name === name);
  if (!found) throw new Error(`no sheet "${name}" (sheets: ${sheets.map((s) => s.name).join(', ')})`);
  return found;
}

/** A column's values by its header. */
export function column(sheet: ReadSheet, header: string): unknown[] {
  const at = sheet.header.indexOf(header);
  if (at >= 0) return sheet.rows.map((r) => r[at]);
  // a table of few records printed as a list (src/report/table-rules.ts): its column is a row, named first
  const listed = sheet.rows.find((r) => r[0] === header);
  if (listed !== undefined) return listed.slice(1);
  throw new Error(`no column "${header}" in ${sheet.name} (${sheet.header.join(', ')})`);
}

/** A date cell read back (exceljs gives a Date for date-formatted numbers) as epoch ms of its wall time. */
export function wallMs(value: unknown): number {
  if (!(value instanceof Date)) throw new Error(`expected a date-time cell, got ${JSON.stringify(value)}`);
  return value.getTime();
}

/**
 * A field of a one-record table the report printed as a list (src/report/table-rules.ts: a row per column, the
 * first column's header and value as the list's header): its value, and the worksheet cell holding it.
 */
export function listedField(sheet: ReadSheet, name: string): { value: unknown; cell: ExcelJS.Cell } {
  if (sheet.header[0] === name) return { value: sheet.header[1], cell: sheet.sheet.getRow(1).getCell(2) };
  const index = sheet.rows.findIndex((row) => row[0] === name);
  if (index < 0)
    throw new Error(`${sheet.name}: no field "${name}" (fields: ${sheet.rows.map((r) => r[0]).join(', ')})`);
  return { value: sheet.rows[index]![1], cell: sheet.sheet.getRow(index + 2).getCell(2) };
}

/**
 * The records of a table the report printed as a list (a row per field, a column per record, the first field
 * in the header): each record by its fields' headers.
 */
export function listedRecords(sheet: ReadSheet): Record<string, unknown>[] {
  return sheet.header.slice(1).map((first, i) => ({
    [sheet.header[0]!]: first,
    ...Object.fromEntries(sheet.rows.map((r) => [String(r[0]), r[i + 1]])),
  }));
}

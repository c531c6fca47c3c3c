// The table rules every report gets by construction (docs/reports.md, "Print rules"), applied to the built
// sheets before any writer sees them, so that the workbook and the HTML page say the same: a date-time column's
// header names the report's zone; a cell that does not apply says `n/a` and the table says why in a footnote,
// and a column n/a on every row is left out (its footnote saying so); a table of few records and many columns
// (a row per knowledge base project) is turned into a list of label and values, a row per column.
import type { CellFormat, CellInput, ColumnSpec, SheetSource } from './report-definition.js';

/** A table of more columns than this and at most TURNED_TABLE_ROWS rows is turned: a row per column. */
export const TURNED_TABLE_COLUMNS = 12;
export const TURNED_TABLE_ROWS = 3;

/** What a cell that does not apply shows. */
export const NOT_APPLICABLE_TEXT = 'n/a';

/**
 * The sheets as the writers take them: zones in the date-time headers; with `rows` in memory (a report written
 * in memory), n/a cells and columns and turned tables too. Streamed sheets keep their rows as they come.
 */
export async function prepareSheets(
  sheets: readonly SheetSource[],
  tz: string,
  inMemory: boolean,
): Promise<SheetSource[]> {
  const prepared: SheetSource[] = [];
  for (const sheet of sheets) {
    const zoned = { ...sheet, columns: sheet.columns.map((c) => withZone(c, tz)) };
    if (!inMemory) {
      prepared.push(zoned);
      continue;
    }
    const rows: CellInput[][] = [];
    for await (const chunk of sheet.rows) rows.push(...chunk);
    prepared.push(turnIfFewRecords(withNotApplicable({ ...zoned, rows: [rows] }, rows)));
  }
  return prepared;
}

/** A date-time column's header with the zone its times are in: `Snapshot taken at (Europe/Moscow)`. */
function withZone(column: ColumnSpec, tz: string): ColumnSpec {
  if (column.format !== 'datetime' || column.header.includes(`(${tz})`)) return column;
  return { ...column, header: `${column.header} (${tz})` };
}

/** The rows of a sheet whose rows are in memory (one chunk). */
function rowsOf(sheet: SheetSource): CellInput[][] {
  return (sheet.rows as CellInput[][][])[0] ?? [];
}

/**
 * Columns with a reason to be n/a: a column n/a on every row is left out, with a footnote; elsewhere an empty
 * cell says `n/a` and the footnote says why. A table with no row is left as it is.
 */
function withNotApplicable(sheet: SheetSource, rows: CellInput[][]): SheetSource {
  const reasons = sheet.columns.map((c) => c.notApplicable);
  if (rows.length === 0 || reasons.every((r) => r === undefined)) return sheet;
  const footnotes = [...(sheet.footnotes ?? [])];
  const keep: number[] = [];
  sheet.columns.forEach((column, i) => {
    const reason = reasons[i];
    const empty = reason !== undefined && rows.every((r) => r[i] === null || r[i] === undefined);
    if (empty) footnotes.push(`${column.header}: not applicable on any row (${reason}).`);
    else keep.push(i);
  });
  const said = new Set<string>();
  const cells = rows.map((row) =>
    keep.map((i) => {
      const value = row[i];
      const reason = reasons[i];
      if (reason === undefined || (value !== null && value !== undefined)) return value;
      said.add(reason);
      return NOT_APPLICABLE_TEXT;
    }),
  );
  for (const reason of said) footnotes.push(`n/a: ${reason}.`);
  return {
    ...sheet,
    columns: keep.map((i) => sheet.columns[i]!),
    rows: [cells],
    ...(sheet.cellFormats ? { cellFormats: sheet.cellFormats.map((f) => f && keep.map((i) => f[i])) } : {}),
    footnotes,
  };
}

/**
 * A table of more than TURNED_TABLE_COLUMNS columns and one to TURNED_TABLE_ROWS rows, as a list: a row per
 * column (its header first), a column per record headed by the record's first field, each cell in its
 * column's format. It reads down one page instead of across three.
 */
function turnIfFewRecords(sheet: SheetSource): SheetSource {
  const rows = rowsOf(sheet);
  if (sheet.columns.length <= TURNED_TABLE_COLUMNS || rows.length === 0 || rows.length > TURNED_TABLE_ROWS)
    return sheet;
  const [first, ...rest] = sheet.columns;
  const columns: ColumnSpec[] = [
    { key: 'field', header: first?.header ?? '', format: 'text' },
    ...rows.map(
      (row, r): ColumnSpec => ({
        key: `record${r}`,
        header: String(row[0] ?? ''),
        format: 'text',
        align: 'right',
      }),
    ),
  ];
  const turned = rest.map((column, c) => [column.header, ...rows.map((row) => row[c + 1])]);
  const cellFormats = rest.map((column, c): (CellFormat | undefined)[] => [
    undefined,
    ...rows.map((_, r) => sheet.cellFormats?.[r]?.[c + 1] ?? column.format),
  ]);
  return { ...sheet, columns, rows: [turned], cellFormats, autoFilter: false };
}

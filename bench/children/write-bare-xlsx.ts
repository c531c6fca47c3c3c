// The XLSX export's floor: the rows of the `messages` report (its own SQL, one statement over the whole period)
// written by a bare exceljs streaming WorkbookWriter, one `addRow(...).commit()` per row, with the report's
// columns, header style, number formats and widths; none of the export's backpressure, XML rows or GCs.
// Usage: write-bare-xlsx.js WAREHOUSE.duckdb FROM_ISO TO_ISO OUT.xlsx; prints {rows, warehouseMessages, ...}.
import { DuckDBInstance } from '@duckdb/node-api';
import ExcelJS, { type Worksheet } from 'exceljs';
import { MESSAGES_COLUMNS } from '../../reports/messages/report.js';
import { paramsFor } from '../../src/analysis/stats/load-stats-sql.js';
import { NUM_FMT } from '../../src/report/cell-values.js';
import { EXCEL_LIMITS } from '../../src/report/excel-limits.js';
import { loadReportSql } from '../../src/report/load-report-sql.js';
import { columnWidth, FROZEN_HEADER, HEADER_STYLE } from '../../src/report/sheet-layout.js';
import { streamRows } from '../../src/warehouse/stream-rows.js';

const [path, fromIso, toIso, out] = process.argv.slice(2);
if (!path || !fromIso || !toIso || !out) {
  process.stderr.write('usage: write-bare-xlsx.js WAREHOUSE.duckdb FROM_ISO TO_ISO OUT.xlsx\n');
  process.exit(2);
}
const DAY_MS = 86_400_000;
/** 1970-01-01 as an Excel serial day: date-times go in as serial numbers (the zone is UTC). */
const EPOCH_SERIAL = 25_569;

const started = performance.now();
const memoryLimit = process.env['REPORTER_DUCKDB_MEMORY_LIMIT'] ?? '256MB';
const db = await DuckDBInstance.create(path, {
  access_mode: 'READ_ONLY',
  memory_limit: memoryLimit,
  threads: '2',
});
const connection = await db.connect();
const counted = (await connection.runAndReadAll('SELECT count(*) FROM messages')).getRows()[0]?.[0];
const projects = (await connection.runAndReadAll('SELECT DISTINCT project FROM messages ORDER BY 1'))
  .getRows()
  .map((r) => String(r[0]));
const sql = loadReportSql('messages', 'messages');
const params = paramsFor(sql, { projects, from: new Date(fromIso), to: new Date(toIso), tz: 'UTC' });

const columns = MESSAGES_COLUMNS.map((c) => (c.key === 'timestamp' ? { ...c, header: 'Time (UTC)' } : c));
const datetimeColumn = columns.findIndex((c) => c.format === 'datetime');
const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
  filename: out,
  useStyles: true,
  useSharedStrings: false,
});
let sheets = 0;
let sheet: Worksheet;
let rowsInSheet = 0;
const openSheet = (): void => {
  sheets += 1;
  sheet = workbook.addWorksheet(sheets === 1 ? 'Messages' : `Messages (${sheets})`, FROZEN_HEADER);
  // numbers take their format from the column's style, a long text its wrapping; other text and booleans
  // have none (as in the export)
  sheet.columns = columns.map((c) => {
    const numFmt = c.format === 'text' ? undefined : NUM_FMT[c.format];
    const style =
      numFmt !== undefined
        ? { style: { numFmt } }
        : c.wrap
          ? { style: { alignment: { wrapText: true, vertical: 'top' as const } } }
          : {};
    return { key: c.key, width: columnWidth(c), ...style };
  });
  const header = sheet.addRow(columns.map((c) => c.header));
  header.height = 30;
  header.eachCell((cell) => {
    cell.style = HEADER_STYLE;
  });
  header.commit();
  rowsInSheet = 0;
};
const closeSheet = (): void => {
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1 + rowsInSheet, column: columns.length } };
  sheet.commit();
};

let rows = 0;
openSheet();
// the SQL selects the report's columns in the sheet's order
for await (const chunk of streamRows(connection, sql, params)) {
  for (const values of chunk.rows) {
    if (rowsInSheet >= EXCEL_LIMITS.maxDataRows) {
      closeSheet();
      openSheet();
    }
    const t = values[datetimeColumn];
    if (typeof t === 'number') values[datetimeColumn] = t / DAY_MS + EPOCH_SERIAL;
    sheet!.addRow(values).commit();
    rowsInSheet += 1;
    rows += 1;
  }
}
closeSheet();
await workbook.commit();
connection.closeSync();
db.closeSync();
const wallMs = performance.now() - started;
process.stdout.write(
  `${JSON.stringify({ rows, sheets, warehouseMessages: Number(counted), projects: projects.length, wallMs })}\n`,
);

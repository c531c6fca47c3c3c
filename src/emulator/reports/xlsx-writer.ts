// XLSX report files through exceljs's streaming workbook writer (rows are committed as they are written,
// so a large report never sits in memory as a workbook). Invariant: the result is readable by exceljs.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import ExcelJS from 'exceljs';
import { cellFormatter } from './cell-format.js';
import type { ReportWriter, WriterOptions } from './report-writer.js';

export async function openXlsxWriter(options: WriterOptions): Promise<ReportWriter> {
  const out = createWriteStream(options.path);
  out.on('error', () => {});
  await once(out, 'open');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(options.sheet);
  const format = cellFormatter(options.columns, options.settings.dateTimeFormat, options.timezoneOffset);
  if (options.settings.withHeader) sheet.addRow(options.columns.map((c) => c.name)).commit();
  return {
    async write(rows) {
      for (const row of rows) sheet.addRow(format(row)).commit();
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
      if (!out.closed) await once(out, 'close');
    },
    abort() {
      out.destroy();
    },
  };
}

// CSV report files: RFC 4180 quoting (a field holding the delimiter, a quote or a line break is quoted,
// quotes doubled), CRLF line ends, UTF-8 (with a byte order mark when the emulator's report shape asks one).
// Invariant: writes respect the stream's back-pressure.

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { cellFormatter } from './cell-format.js';
import type { Cell } from './report-table.js';
import type { ReportWriter, WriterOptions } from './report-writer.js';

function csvField(cell: Cell, delimiter: string): string {
  if (cell === null) return '';
  const text = String(cell);
  if (text.includes(delimiter) || text.includes('"') || text.includes('\n') || text.includes('\r')) {
    return `"${text.replace(/"/g, '""')}"`;
  }
  return text;
}

export async function openCsvWriter(options: WriterOptions): Promise<ReportWriter> {
  const { delimiter, withHeader } = options.settings;
  const out = createWriteStream(options.path, { encoding: 'utf8' });
  out.on('error', () => {});
  await once(out, 'open');
  const format = cellFormatter(options.columns, options.settings.dateTimeFormat, options.timezoneOffset);
  const line = (cells: readonly Cell[]) => `${cells.map((c) => csvField(c, delimiter)).join(delimiter)}\r\n`;
  const put = async (text: string): Promise<void> => {
    if (!out.write(text)) await once(out, 'drain');
  };
  if (options.bom) await put('\ufeff');
  if (withHeader) await put(line(options.columns.map((c) => c.name)));
  return {
    async write(rows) {
      let chunk = '';
      for (const row of rows) chunk += line(format(row));
      if (chunk !== '') await put(chunk);
    },
    async finish() {
      out.end();
      await once(out, 'close');
    },
    abort() {
      out.destroy();
    },
  };
}

// Writing a report table to a file, batch by batch, as CSV or XLSX according to the settings.
// Invariant: the header row (when withHeader) is written on open; finish() resolves only once the file
// is complete and closed on disk.
import { openCsvWriter } from './csv-writer.js';
import type { Cell, Column } from './report-table.js';
import type { ReportSettings } from './report-types.js';
import { openXlsxWriter } from './xlsx-writer.js';

export interface ReportWriter {
  write(rows: readonly Cell[][]): Promise<void>;
  /** Flushes and closes the file. */
  finish(): Promise<void>;
  /** Stops writing and releases the file (its content is then undefined). */
  abort(): void;
}

export interface WriterOptions {
  path: string;
  columns: readonly Column[];
  settings: ReportSettings;
  sheet: string;
  timezoneOffset: number;
  /** CSV: the file starts with a UTF-8 byte order mark. */
  bom?: boolean;
}

export function openReportWriter(options: WriterOptions): Promise<ReportWriter> {
  return options.settings.fileType === 'CSV' ? openCsvWriter(options) : openXlsxWriter(options);
}

// Reads a downloaded report file row by row without holding it whole: XLSX through exceljs's streaming
// reader, CSV through parse-csv-stream. Reading it to the end is the check that it opens. Invariants: a file
// that does not open, has no header row when one was asked for, or has rows of different widths (CSV) is an
// EtlError naming the file and the line; cells reach the caller as text.
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { EtlError } from '../errors.js';
import { readXlsxRows, rowTexts } from '../platform/reporter/read-xlsx-rows.js';
import { CsvSyntaxError, parseCsvStream } from './parse-csv-stream.js';
import type { FileType } from './report-kinds.js';

export interface ReportFileShape {
  fileType: FileType;
  delimiter: string;
  withHeader: boolean;
}

export interface ReportFileSummary {
  /** Data rows (the header row excluded). */
  rows: number;
  header: string[] | undefined;
  sheet?: string;
}

function badFile(path: string, reason: string, cause?: unknown): EtlError {
  return new EtlError('platform_report.bad_file', `the report file ${basename(path)} ${reason}`, { cause });
}

async function readXlsx(
  path: string,
  onRow: (cells: string[], line: number) => void,
): Promise<{ rows: number; sheet: string | undefined }> {
  return readXlsxRows(path, (values, line) => onRow(rowTexts(values), line));
}

/**
 * Reads the whole file, calling onRow for every data row (1-based line of the file). Throws when the file
 * does not open or is malformed.
 */
export async function readReportFile(
  path: string,
  shape: ReportFileShape,
  onRow?: (cells: string[], line: number) => void,
): Promise<ReportFileSummary> {
  let header: string[] | undefined;
  let width: number | undefined;
  let data = 0;
  const take = (cells: string[], line: number) => {
    if (shape.fileType === 'CSV') {
      if (width === undefined) width = cells.length;
      else if (cells.length !== width)
        throw badFile(path, `has ${cells.length} fields on line ${line} where the first line has ${width}`);
    }
    if (shape.withHeader && header === undefined) {
      header = cells;
      return;
    }
    data++;
    onRow?.(cells, line);
  };
  let sheet: string | undefined;
  try {
    if (shape.fileType === 'CSV') {
      await parseCsvStream(createReadStream(path, { encoding: 'utf8' }), shape.delimiter, take);
    } else {
      sheet = (await readXlsx(path, take)).sheet;
    }
  } catch (error) {
    if (error instanceof EtlError) throw error;
    const what = shape.fileType === 'CSV' ? 'CSV' : 'XLSX workbook (exceljs)';
    const reason = error instanceof CsvSyntaxError ? error.message : (error as Error).message;
    throw badFile(path, `does not read as a ${what}: ${reason}`, error);
  }
  if (shape.withHeader && header === undefined) throw badFile(path, 'is empty: it has no header row');
  return { rows: data, header, ...(sheet === undefined ? {} : { sheet }) };
}

// Reads a downloaded report file row by row without holding it whole: its type told by its content, never by
// its name or the type asked (a zip is an XLSX workbook, read through exceljs's streaming reader; text is CSV,
// through parse-csv-stream, its encoding and delimiter sniffed from its first 64 KB: a server may serve XLSX for
// CSV, or write `;` whatever was asked). Reading it to the end is the check that it opens. Invariants: a file
// that does not open, has no header row when one was asked for, or has rows of different widths (CSV) is an
// EtlError naming the file and the line; cells reach the caller as text.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { EtlError } from '../errors.js';
import { readXlsxRows, rowTexts } from '../platform/reporter/read-xlsx-rows.js';
import {
  type DecodedText,
  decodeReportText,
  sniffDelimiter,
  sniffFileType,
} from '../platform/reporter/report-file-form.js';
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
  /** The type the file is, by its content (whatever was asked); a CSV's delimiter and encoding as read. */
  fileType: FileType;
  delimiter?: string;
  encoding?: DecodedText['encoding'];
}

/** What the file's first bytes say: its type, and a CSV's encoding and delimiter (the asked one when unclear). */
interface FileForm {
  fileType: FileType;
  delimiter: string;
  encoding: DecodedText['encoding'];
}

const HEAD_BYTES = 64 * 1024;

async function sniffFile(path: string, askedDelimiter: string): Promise<FileForm> {
  const handle = await open(path, 'r');
  let head: Uint8Array;
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const type = sniffFileType(head);
  if (type === 'XLS') throw badFile(path, 'is a legacy XLS workbook (an OLE file), which is not read');
  if (type === 'XLSX') return { fileType: 'XLSX', delimiter: askedDelimiter, encoding: 'utf-8' };
  // a multi-byte character cut at the head's end must not make the head look like another encoding
  const whole = head.length < HEAD_BYTES;
  const decoded = decodeReportText(whole ? head : head.subarray(0, lastLineEnd(head)));
  return {
    fileType: 'CSV',
    delimiter: sniffDelimiter(decoded.text, askedDelimiter),
    encoding: decoded.encoding,
  };
}

/** The bytes up to the last line feed of the head (a whole number of characters in any of the encodings). */
function lastLineEnd(head: Uint8Array): number {
  const at = head.lastIndexOf(0x0a);
  return at < 0 ? head.length : at + 1;
}

/** The file's text, decoded chunk by chunk in its encoding (its byte order mark left out). */
async function* decodedChunks(path: string, encoding: DecodedText['encoding']): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding);
  for await (const chunk of createReadStream(path)) yield decoder.decode(chunk as Buffer, { stream: true });
  yield decoder.decode();
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
 * Reads the whole file, calling onHeader with the header row and onRow for every data row (1-based line of the
 * file). The type is the file's by its content, `shape.fileType` only what was asked; `shape.delimiter` is
 * taken when the first records do not tell another. Throws when the file does not open or is malformed.
 */
export async function readReportFile(
  path: string,
  shape: ReportFileShape,
  onRow?: (cells: string[], line: number) => void,
  onHeader?: (cells: string[]) => void,
): Promise<ReportFileSummary> {
  const form = await sniffFile(path, shape.delimiter);
  let header: string[] | undefined;
  let width: number | undefined;
  let data = 0;
  const take = (cells: string[], line: number) => {
    if (form.fileType === 'CSV') {
      if (width === undefined) width = cells.length;
      else if (cells.length !== width)
        throw badFile(path, `has ${cells.length} fields on line ${line} where the first line has ${width}`);
    }
    if (shape.withHeader && header === undefined) {
      header = cells;
      onHeader?.(cells);
      return;
    }
    data++;
    onRow?.(cells, line);
  };
  let sheet: string | undefined;
  try {
    if (form.fileType === 'CSV') {
      await parseCsvStream(decodedChunks(path, form.encoding), form.delimiter, take);
    } else {
      sheet = (await readXlsx(path, take)).sheet;
    }
  } catch (error) {
    if (error instanceof EtlError) throw error;
    const what = form.fileType === 'CSV' ? 'CSV' : 'XLSX workbook (exceljs)';
    const reason = error instanceof CsvSyntaxError ? error.message : (error as Error).message;
    throw badFile(path, `does not read as a ${what}: ${reason}`, error);
  }
  if (shape.withHeader && header === undefined) throw badFile(path, 'is empty: it has no header row');
  const csv = form.fileType === 'CSV' ? { delimiter: form.delimiter, encoding: form.encoding } : {};
  return { rows: data, header, fileType: form.fileType, ...csv, ...(sheet === undefined ? {} : { sheet }) };
}

// Reads a statuses report's file from its bytes, whatever the server made of it: its type told by its content
// (a zip is an XLSX workbook, its sheet inflated and scanned as it comes by xlsx-sheet-rows.ts, or by exceljs's
// streaming reader where that declines it; text is CSV, its encoding, BOM and delimiter sniffed:
// report-file-form.ts), its columns found by their values (status-columns.ts: the first SAMPLE_ROWS rows are
// read whole, then only the status column and the id-like ones are copied out of each record). Invariant: the
// result holds every data row or the read fails with a ReportFileError saying why (the caller's window then
// reads its statuses per client).
import { cellText, readXlsxRows, rowTexts } from '../../platform/reporter/read-xlsx-rows.js';
import {
  decodeReportText,
  type ReportFileType,
  sniffDelimiter,
  sniffFileType,
} from '../../platform/reporter/report-file-form.js';
import { readXlsxSheet } from '../../platform/reporter/xlsx-sheet-rows.js';
import { CsvCursor, everyField, ownCopy } from './pick-csv-columns.js';
import { ReportStatuses } from './report-statuses.js';
import {
  type ColumnChoice,
  findStatusColumns,
  isStatusValue,
  ReportColumnsError,
  SAMPLE_ROWS,
} from './status-columns.js';

export class ReportFileError extends Error {}

/** What was read, for the log. */
export interface StatusTable {
  statuses: ReportStatuses;
  fileType: Exclude<ReportFileType, 'XLS'>;
  /** CSV: the delimiter found and the encoding. */
  delimiter?: string;
  encoding?: string;
}

/** The rows as they come: the header, the sample whole, then the chosen columns only. */
class StatusRows {
  header: string[] | undefined;
  private readonly sample: string[][] = [];
  private choice: ColumnChoice | undefined;
  /** Slot 0 the status column, then the id-like columns: their positions, and the slot of each position. */
  positions: number[] | undefined;
  slotOf: Int32Array | undefined;
  private readonly statuses: (string | null)[] = [];
  private ids: string[][] = [];
  rows = 0;

  /** A data record: every field while sampling, else the fields of `positions`, by slot. */
  add(values: string[]): void {
    this.rows++;
    if (this.choice === undefined) {
      this.sample.push(values);
      if (this.sample.length >= SAMPLE_ROWS) this.choose();
      return;
    }
    this.keep(values);
  }

  /** The columns, from the sample; the sample's rows kept as every later one is. */
  private choose(): void {
    this.choice = findStatusColumns(this.header ?? [], this.sample);
    this.positions = [this.choice.status, ...this.choice.ids];
    this.slotOf = new Int32Array(
      Math.max(this.header?.length ?? 0, ...this.positions.map((p) => p + 1)),
    ).fill(-1);
    this.positions.forEach((position, slot) => {
      this.slotOf![position] = slot;
    });
    this.ids = this.choice.ids.map(() => []);
    for (const row of this.sample.splice(0)) this.keep(this.positions.map((p) => row[p] ?? ''));
  }

  /** A record's status (slot 0) and id-like values (the next slots). */
  private keep(values: readonly string[]): void {
    const status = values[0] ?? '';
    if (status !== '' && !isStatusValue(status))
      throw new ReportFileError(
        `the status column's value on data row ${this.rows} is ${JSON.stringify(status.slice(0, 40))}, not a delivery status`,
      );
    this.statuses.push(status === '' ? null : status);
    for (let n = 0; n < this.ids.length; n++) this.ids[n]!.push(values[n + 1] ?? '');
  }

  finish(onUnmatched: (reason: string) => void): ReportStatuses {
    if (this.header === undefined) throw new ReportFileError('the file is empty: no header');
    if (this.rows === 0) return new ReportStatuses([], [], 0, onUnmatched);
    if (this.choice === undefined) this.choose();
    const candidates = this.choice!.ids.map((position, n) => ({
      name: this.header![position] ?? `column ${position + 1}`,
      values: this.ids[n]!,
    }));
    return new ReportStatuses(candidates, this.statuses, this.rows, onUnmatched);
  }
}

function readCsv(text: string, delimiter: string, rows: StatusRows): void {
  const cursor = new CsvCursor(text, delimiter);
  rows.header = cursor.nextRecord();
  if (rows.header === undefined) return;
  const width = rows.header.length;
  const all = everyField(width);
  while (cursor.skipEmptyLines()) {
    const slotOf = rows.slotOf;
    rows.add(slotOf ? cursor.pickRecord(slotOf, rows.positions!.length) : cursor.pickRecord(all, width));
  }
}

/** The rows of an XLSX file: the quick reader's (xlsx-sheet-rows.ts), or exceljs's where it declines the file. */
async function readXlsx(bytes: Uint8Array, rows: StatusRows): Promise<void> {
  const take = (cells: string[]) => {
    if (rows.header === undefined) rows.header = cells;
    else rows.add(cells.map(ownCopy));
  };
  const pick = () =>
    rows.header !== undefined && rows.slotOf !== undefined
      ? { slotOf: rows.slotOf, slots: rows.positions!.length }
      : undefined;
  if (await readXlsxSheet(bytes, take, pick)) return;
  await readXlsxRows(bytes, (values) => {
    if (rows.header === undefined) {
      rows.header = rowTexts(values);
      return;
    }
    const positions = rows.positions;
    // exceljs's values: index 1 is column A
    rows.add(
      positions
        ? positions.map((p) => ownCopy(cellText(values[p + 1])))
        : rowTexts(values).map((v) => ownCopy(v)),
    );
  });
}

/** The statuses report of `bytes`; `onUnmatched` hears of a lookup no id column answers. */
export async function readStatusTable(
  bytes: Uint8Array,
  onUnmatched: (reason: string) => void,
): Promise<StatusTable> {
  const type = sniffFileType(bytes);
  const rows = new StatusRows();
  try {
    if (type === 'XLS')
      throw new ReportFileError('the file is a legacy XLS workbook (an OLE file), which is not read');
    if (type === 'XLSX') {
      await readXlsx(bytes, rows);
      return { statuses: rows.finish(onUnmatched), fileType: 'XLSX' };
    }
    const { text, encoding } = decodeReportText(bytes);
    const delimiter = sniffDelimiter(text);
    readCsv(text, delimiter, rows);
    return { statuses: rows.finish(onUnmatched), fileType: 'CSV', delimiter, encoding };
  } catch (error) {
    if (error instanceof ReportFileError) throw error;
    if (error instanceof ReportColumnsError) throw new ReportFileError(error.message);
    const what = type === 'XLSX' ? 'an XLSX workbook' : 'CSV';
    const why = error instanceof Error ? error.message : String(error);
    throw new ReportFileError(`the file does not read as ${what} (${why})`);
  }
}

// Writes a workbook of any size with exceljs's streaming WorkbookWriter, keeping memory flat (docs/reports.md,
// "Memory"): exceljs ignores backpressure, so after each chunk we wait for the zip entry's input to drain;
// data rows go into the sheet's stream as XML (row-xml.ts), not as Row objects; a full GC now and then frees
// DuckDB's native chunk memory (src/collect-garbage.ts). 1M rows: ~300 MB peak RSS instead of 860 MB.
// A failing file (ENOSPC) stops the writing at the next chunk and is thrown from here, never left unhandled.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import ExcelJS, { type Alignment, type Style, type Worksheet } from 'exceljs';
import { collectGarbage, collectionsSoFar } from '../collect-garbage.js';
import { EtlError } from '../errors.js';
import type { CellFormat, SheetSource } from './report-definition.js';
import { columnLetters, rowXml } from './row-xml.js';
import { formatStyle, TABLE_SHEET } from './sheet-layout.js';
import { type WriteSheetsOptions, type WrittenSheet, writeSheets } from './write-sheets.js';

/**
 * A full GC every this many rows frees DuckDB's native chunk memory (src/collect-garbage.ts): 1M rows 386 → 295 MB
 * at 4,096 rows; each full GC costs ~45 ms, and at 16,384 the 192k-row export took 2 CPU-s less for ~8 MB more
 * (bench/README.md, issue 34 item 5). The report's slices have their own GC at their end (write-report.ts).
 */
const ROWS_PER_COLLECTION = 16_384;
/** DuckDB hands rows over in chunks of about this many (afterRows runs once per chunk). */
const CHUNK_ROWS_ESTIMATE = 2_048;

/** The deflate's output chunk (zlib's chunkSize; its default is 16 KB): the 192k-row export 0.4 CPU-s less. */
const ZLIB_CHUNK_BYTES = 256 * 1024;

/** Bytes a sheet may buffer before its zip entry starts reading it (a sheet waits for the one before). */
const MAX_UNREAD_BYTES = 8 * 1024 * 1024;

export async function writeStreamingWorkbook(
  path: string,
  sheets: readonly SheetSource[],
  options: WriteSheetsOptions & { title: string },
): Promise<WrittenSheet[]> {
  const file = createWriteStream(path);
  // the file's first error (a full disk): nothing reads the zip any more, so the rows stop at the next chunk
  let fileError: Error | undefined;
  const fileFailed = new Promise<never>((_, reject) => {
    file.once('error', (error) => {
      fileError = error;
      reject(error);
    });
  });
  fileFailed.catch(() => undefined); // awaited below; never an unhandled rejection
  const fileDone = Promise.race([once(file, 'close').then(() => undefined), fileFailed]);
  const throwIfFileFailed = () => {
    if (fileError) throw fileError;
  };
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: file,
    useStyles: true,
    // shared strings would keep every distinct text of the workbook in memory until the end
    useSharedStrings: false,
    // deflate at level 1 (archiver's zip default already: compress-commons sets ZLIB_BEST_SPEED when no level is
    // given) with 256 KB output chunks instead of zlib's 16 KB: a sixteenth of the thread-pool round trips
    zip: { zlib: { level: 1, chunkSize: ZLIB_CHUNK_BYTES } },
  });
  workbook.creator = 'reporter-etl';
  workbook.title = options.title;
  // rows after the header are written as XML straight into the sheet's stream (src/report/row-xml.ts)
  const nextRow = new WeakMap<Worksheet, number>();
  const letters: string[] = [];
  const styleIds = new Map<string, number>();
  const styles = (workbook as unknown as { styles: StyleTable }).styles;
  const styleIdOf = (format: CellFormat, wrap: boolean): number => {
    const key = wrap ? `${format} wrapped` : format;
    let id = styleIds.get(key);
    if (id === undefined) {
      const style = formatStyle(format);
      // text and booleans need no number format; numbers get their format's style, a long text its wrapping
      // one (each added once)
      if (wrap && format === 'text') id = styles.addStyleModel({ ...style, alignment: WRAPPED }, STRING_TYPE);
      else if (format === 'text' || format === 'boolean' || !style.numFmt) id = 0;
      else id = styles.addStyleModel(style, NUMBER_TYPE);
      styleIds.set(key, id);
    }
    return id;
  };
  let lastFormats: readonly CellFormat[] | undefined;
  let lastStyleIds: number[] = [];
  const pending = new PendingRows();
  let rowsSinceCollection = 0;
  let lastCollection = collectionsSoFar();
  try {
    const written = await writeSheets(
      {
        commitRows: true,
        addSheet: (name) => {
          const sheet = workbook.addWorksheet(name, TABLE_SHEET);
          nextRow.set(sheet, 2);
          return sheet;
        },
        addRow: (sheet, cells, formats, wraps) => {
          const rowNumber = nextRow.get(sheet) ?? 2;
          nextRow.set(sheet, rowNumber + 1);
          while (letters.length < cells.length) letters.push(columnLetters(letters.length + 1));
          // a source's rows share its formats array (a row with a format of its own has a new one)
          if (formats !== lastFormats) {
            lastFormats = formats;
            lastStyleIds = formats.map((format, i) => styleIdOf(format, wraps[i] === true));
          }
          pending.add(sheet, rowXml(rowNumber, cells, letters, lastStyleIds));
        },
        finishSheet: async (sheet) => {
          throwIfFileFailed();
          pending.flush();
          sheet.commit();
        },
        afterRows: async (sheet) => {
          throwIfFileFailed();
          pending.flush();
          await Promise.race([waitForZip(sheet), fileFailed]);
          // a collection since the last chunk (the end of a report's slice) counts as this writer's own
          if (collectionsSoFar() !== lastCollection) rowsSinceCollection = 0;
          rowsSinceCollection += CHUNK_ROWS_ESTIMATE;
          if (rowsSinceCollection >= ROWS_PER_COLLECTION) {
            rowsSinceCollection = 0;
            collectGarbage();
          }
          lastCollection = collectionsSoFar();
        },
      },
      sheets,
      options,
    );
    await Promise.race([workbook.commit(), fileFailed]);
    await fileDone;
    return written;
  } catch (error) {
    file.destroy();
    await fileDone.catch(() => undefined);
    // the file's error is the cause when the zip stopped because of it
    throw fileError ?? error;
  }
}

/**
 * A chunk's row XML, written into its sheet's stream at once (one string, one buffer, one write per chunk
 * instead of per row: the stream's per-write copies were a tenth of the export's CPU).
 */
class PendingRows {
  private sheet: Worksheet | undefined;
  private xml = '';

  add(sheet: Worksheet, rowXml: string): void {
    if (sheet !== this.sheet) this.flush();
    this.sheet = sheet;
    this.xml += rowXml;
  }

  flush(): void {
    if (this.sheet && this.xml !== '') sheetStream(this.sheet).write(this.xml);
    this.xml = '';
  }
}

/** exceljs's style table (StylesXform) of a streaming workbook: a style model's id, added when new. */
interface StyleTable {
  addStyleModel(style: Partial<Style>, cellType: number): number;
}

/** exceljs's Enums.ValueType.Number and .String. */
const NUMBER_TYPE = 2;
const STRING_TYPE = 3;

/** A long text's alignment: wrapped in its column, from the top of its row. */
const WRAPPED: Partial<Alignment> = Object.freeze({ wrapText: true, vertical: 'top' });

/** The sheet's XML stream, which the header was written to (it must exist: the header was committed). */
function sheetStream(sheet: Worksheet): { write(xml: string): unknown } {
  const stream = (sheet as unknown as { stream?: { write(xml: string): unknown } }).stream;
  if (!stream)
    throw new EtlError(
      'report.exceljs_changed',
      'exceljs internals changed: a streamed worksheet has no stream (install the exceljs version package.json pins)',
    );
  return stream;
}

/** The internals of exceljs 4 the wait reads: the sheet's StreamBuf and the zip entry stream it writes to. */
interface SheetStreamInternals {
  stream?: {
    pipes?: { _writableState?: { needDrain?: boolean } }[];
    buffers?: { length: number }[];
  };
}

/**
 * Waits until the zip has taken the sheet's rows: while the zip entry's input stream is over its high-water
 * mark ('drain' follows), or while the entry has not started and the sheet holds more than MAX_UNREAD_BYTES.
 */
async function waitForZip(sheet: Worksheet): Promise<void> {
  const stream = (sheet as unknown as SheetStreamInternals).stream;
  for (;;) {
    const entry = stream?.pipes?.[0] as
      | (NodeJS.EventEmitter & { _writableState?: { needDrain?: boolean } })
      | undefined;
    if (entry?._writableState) {
      if (!entry._writableState.needDrain) return;
      await once(entry, 'drain');
      continue;
    }
    const unread = (stream?.buffers ?? []).reduce((sum, b) => sum + b.length, 0);
    if (stream === undefined || entry !== undefined || unread < MAX_UNREAD_BYTES) {
      // not the exceljs internals this was measured on: at least let the zip run
      await new Promise((resolve) => setImmediate(resolve));
      return;
    }
    await sleep(2);
  }
}

// Writes a workbook of any size, keeping memory flat (docs/reports.md, "Memory"): sheets rendered as exceljs's
// streaming writer renders them (src/report/streamed-workbook.ts) into our own zip (zip-writer.ts: node:zlib's
// deflate, zlib.crc32), after each chunk of rows waiting for the deflate and the file to take them; data rows
// go into the sheet's part as XML (row-xml.ts), not as Row objects; a full GC now and then frees DuckDB's
// native chunk memory (src/process/collect-garbage.ts). A failing file (ENOSPC) stops the writing at the next chunk
// and is thrown from here, never left unhandled.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { collectGarbage, collectionsSoFar } from '../process/collect-garbage.js';
import type { CellOutput } from './cell-values.js';
import type { SheetWriter } from './exceljs-parts.js';
import type { SheetSource } from './report-definition.js';
import { columnLetters, rowXml } from './row-xml.js';
import { formatStyle, TABLE_SHEET, TEXT_FORMATS } from './sheet-layout.js';
import { StreamedWorkbook } from './streamed-workbook.js';
import { type CellLook, type WriteSheetsOptions, type WrittenSheet, writeSheets } from './write-sheets.js';
import { ZipWriter } from './zip-writer.js';

/**
 * A full GC every this many rows frees DuckDB's native chunk memory (src/process/collect-garbage.ts): 1M rows 386 → 295 MB
 * at 4,096 rows; each full GC costs ~45 ms, and at 16,384 the 192k-row export took 2 CPU-s less for ~8 MB more
 * (bench/README.md, issue 34 item 5). The report's slices have their own GC at their end (write-report.ts).
 */
const ROWS_PER_COLLECTION = 16_384;
/** DuckDB hands rows over in chunks of about this many (afterRows runs once per chunk). */
const CHUNK_ROWS_ESTIMATE = 2_048;

/** The deflate's output chunk (zlib's chunkSize; its default is 16 KB): the 192k-row export 0.4 CPU-s less. */
const ZLIB_CHUNK_BYTES = 256 * 1024;

export async function writeStreamingWorkbook(
  path: string,
  sheets: readonly SheetSource[],
  options: WriteSheetsOptions & { title: string },
): Promise<WrittenSheet[]> {
  const file = createWriteStream(path);
  // the file's first error (a full disk): nothing takes the zip's bytes any more, so the rows stop at the next chunk
  let fileError: Error | undefined;
  const fileFailed = new Promise<never>((_, reject) => {
    file.once('error', (error) => {
      fileError = error;
      reject(error);
    });
  });
  fileFailed.catch(() => undefined); // awaited below; never an unhandled rejection
  const throwIfFileFailed = () => {
    if (fileError) throw fileError;
  };
  // deflate at level 1 with 256 KB output chunks instead of zlib's 16 KB: a sixteenth of the thread-pool round trips
  const zip = new ZipWriter(file, { level: 1, chunkBytes: ZLIB_CHUNK_BYTES });
  const workbook = new StreamedWorkbook(zip, {
    creator: 'reporter-etl',
    title: options.title,
    created: new Date(),
  });
  const rows = new StreamedRows(workbook);
  const collector = new PeriodicCollector();
  try {
    const written = await writeSheets(
      {
        commitRows: true,
        addSheet: (name) => rows.addSheet(workbook.addWorksheet(name, TABLE_SHEET)),
        addRow: (sheet, cells, looks, points) => rows.add(sheet as SheetWriter, cells, looks, points),
        finishSheet: async (sheet) => {
          throwIfFileFailed();
          await Promise.race([workbook.finishSheet(sheet as SheetWriter), fileFailed]);
        },
        afterRows: async (sheet) => {
          throwIfFileFailed();
          const part = workbook.part(sheet as SheetWriter);
          part.flush();
          await Promise.race([part.ready(), fileFailed]);
          collector.afterChunk();
        },
      },
      sheets,
      options,
    );
    await Promise.race([workbook.commit(), fileFailed]);
    if (!file.closed) await Promise.race([once(file, 'close'), fileFailed]);
    return written;
  } catch (error) {
    file.destroy();
    if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
    // the file's error is the cause when the zip stopped because of it
    throw fileError ?? error;
  }
}

/** Data rows of the streamed sheets: each row's XML (row-xml.ts) with its cells' style ids, into its sheet's part. */
class StreamedRows {
  private readonly nextRow = new WeakMap<SheetWriter, number>();
  private readonly letters: string[] = [];
  private readonly styleIds = new Map<string, number>();
  private lastLooks: readonly CellLook[] | undefined;
  private lastStyleIds: number[] = [];

  constructor(private readonly workbook: StreamedWorkbook) {}

  addSheet(sheet: SheetWriter): SheetWriter {
    this.nextRow.set(sheet, 2);
    return sheet;
  }

  add(
    sheet: SheetWriter,
    cells: readonly CellOutput[],
    looks: readonly CellLook[],
    points: number | undefined,
  ): void {
    const rowNumber = this.nextRow.get(sheet) ?? 2;
    this.nextRow.set(sheet, rowNumber + 1);
    while (this.letters.length < cells.length) this.letters.push(columnLetters(this.letters.length + 1));
    // a source's rows share its looks array (a row with formats of its own has a new one)
    if (looks !== this.lastLooks) {
      this.lastLooks = looks;
      this.lastStyleIds = looks.map((look) => this.styleIdOf(look));
    }
    this.workbook.part(sheet).write(rowXml(rowNumber, cells, this.letters, this.lastStyleIds, points));
  }

  /** Each look's style in the workbook's style table: text wrapped, numbers formatted, all at the top of their row. */
  private styleIdOf(look: CellLook): number {
    const key = `${look.format}|${look.align ?? ''}`;
    let id = this.styleIds.get(key);
    if (id === undefined) {
      const style = formatStyle(look.format, look.align);
      const type = TEXT_FORMATS.has(look.format) ? STRING_TYPE : NUMBER_TYPE;
      id = this.workbook.styles.addStyleModel(style, type);
      this.styleIds.set(key, id);
    }
    return id;
  }
}

/** A full GC every ROWS_PER_COLLECTION rows (DuckDB's native chunk memory is freed only then). */
class PeriodicCollector {
  private rowsSinceCollection = 0;
  private lastCollection = collectionsSoFar();

  afterChunk(): void {
    // a collection since the last chunk (the end of a report's slice) counts as this writer's own
    if (collectionsSoFar() !== this.lastCollection) this.rowsSinceCollection = 0;
    this.rowsSinceCollection += CHUNK_ROWS_ESTIMATE;
    if (this.rowsSinceCollection >= ROWS_PER_COLLECTION) {
      this.rowsSinceCollection = 0;
      collectGarbage();
    }
    this.lastCollection = collectionsSoFar();
  }
}

/** exceljs's Enums.ValueType.Number and .String. */
const NUMBER_TYPE = 2;
const STRING_TYPE = 3;

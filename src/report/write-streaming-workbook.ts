// Writes a workbook of any size with exceljs's streaming WorkbookWriter, keeping memory flat. Measured
// (README, "Reports"): committing rows is not enough, because the sheet's stream ignores backpressure and
// buffers everything its zip entry has not yet deflated (1M rows: 860 MB). So after each chunk we wait for
// the zip entry's input to drain, which backpressures through deflate and the zip to the file (~130 MB).
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import ExcelJS, { type Worksheet } from 'exceljs';
import type { SheetSource } from './report-definition.js';
import { FROZEN_HEADER } from './sheet-layout.js';
import { type WriteSheetsOptions, type WrittenSheet, writeSheets } from './write-sheets.js';

/** Bytes a sheet may buffer before its zip entry starts reading it (a sheet waits for the one before). */
const MAX_UNREAD_BYTES = 8 * 1024 * 1024;

export async function writeStreamingWorkbook(
  path: string,
  sheets: readonly SheetSource[],
  options: WriteSheetsOptions & { title: string },
): Promise<WrittenSheet[]> {
  const file = createWriteStream(path);
  const fileDone = new Promise<void>((resolve, reject) => {
    file.once('close', resolve);
    file.once('error', reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: file,
    useStyles: true,
    // shared strings would keep every distinct text of the workbook in memory until the end
    useSharedStrings: false,
  });
  workbook.creator = 'reporter-etl';
  workbook.title = options.title;
  try {
    const written = await writeSheets(
      {
        commitRows: true,
        addSheet: (name) => workbook.addWorksheet(name, FROZEN_HEADER),
        finishSheet: async (sheet) => {
          sheet.commit();
        },
        afterRows: (sheet) => waitForZip(sheet),
      },
      sheets,
      options,
    );
    await workbook.commit();
    await fileDone;
    return written;
  } catch (error) {
    file.destroy();
    await fileDone.catch(() => undefined);
    throw error;
  }
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

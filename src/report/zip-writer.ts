// A streaming ZIP writer for the streamed workbook (docs/reports.md, "Memory"): small parts deflated at once,
// one large part at a time streamed through node:zlib's raw deflate (on the thread pool, beside the rows being
// made) with its CRC from zlib.crc32 and its sizes in a data descriptor; then the central directory, zip64 only
// where a size or an offset needs it. Backpressure is honoured end to end: `entry.ready()` waits while the
// deflate holds more than its high-water mark, and the deflate waits while the file does.
import type { Writable } from 'node:stream';
import {
  constants,
  crc32,
  createDeflateRaw,
  type DeflateRaw,
  deflateRawSync,
  type ZlibOptions,
} from 'node:zlib';
import { EtlError } from '../errors.js';
import {
  centralFileHeader,
  dataDescriptor,
  dosDateTime,
  endOfCentralDirectory,
  localFileHeader,
  MAX_UINT32,
  type ZipEntryRecord,
} from './zip-records.js';

export interface ZipWriterOptions {
  /** zlib's level: 1 (the fastest; an XLSX sheet still shrinks about 8 times). */
  level?: number;
  /** The deflate's output chunk (zlib's default is 16 KB: a sixteenth of the thread-pool round trips at 256 KB). */
  chunkBytes?: number;
  /** The entry time (default: now). */
  date?: Date;
  /** Sizes and offsets over this are written in zip64 form (default 4 GB less one; lower only in tests). */
  zip64Above?: number;
}

const DEFAULT_CHUNK_BYTES = 256 * 1024;
/** The deflate's input held before `ready()` waits: a few of the writer's chunks of rows. */
const DEFLATE_HIGH_WATER_BYTES = 4 * 1024 * 1024;

export class ZipWriter {
  private readonly records: ZipEntryRecord[] = [];
  private readonly level: number;
  private readonly chunkBytes: number;
  private readonly zip64Above: number;
  private readonly time: { dosTime: number; dosDate: number };
  private offset = 0;
  private streaming: ZipEntryStream | undefined;
  private finished = false;

  constructor(
    private readonly out: Writable,
    options: ZipWriterOptions = {},
  ) {
    this.level = options.level ?? constants.Z_BEST_SPEED;
    this.chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    this.zip64Above = options.zip64Above ?? MAX_UINT32;
    this.time = dosDateTime(options.date ?? new Date());
  }

  /** Adds a whole part (a few KB: deflated here, at once). */
  addFile(name: string, content: string | Buffer): void {
    this.checkIdle(name);
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const compressed = deflateRawSync(data, { level: this.level });
    const record = this.newRecord(name, false);
    Object.assign(record, {
      crc32: crc32(data),
      compressedSize: compressed.length,
      uncompressedSize: data.length,
    });
    this.write(localFileHeader(record));
    this.write(compressed);
  }

  /** Starts a part streamed in pieces (one at a time: close it before the next part). */
  openEntry(name: string): ZipEntryStream {
    this.checkIdle(name);
    const record = this.newRecord(name, true);
    this.write(localFileHeader(record));
    // zlib's streams take the stream options too (its types leave highWaterMark out)
    const deflate = createDeflateRaw({
      level: this.level,
      chunkSize: this.chunkBytes,
      highWaterMark: DEFLATE_HIGH_WATER_BYTES,
    } as ZlibOptions);
    this.streaming = new ZipEntryStream(record, deflate, this.out, (compressedSize) => {
      this.offset += compressedSize;
      this.write(dataDescriptor(record));
      this.streaming = undefined;
    });
    return this.streaming;
  }

  /** Writes the central directory and the end records, then ends the output; resolves once it is flushed. */
  async finish(): Promise<void> {
    this.checkIdle('the central directory');
    this.finished = true;
    const start = this.offset;
    for (const record of this.records) this.write(centralFileHeader(record, this.zip64Above));
    const directory = { entries: this.records.length, offset: start, size: this.offset - start };
    this.write(endOfCentralDirectory(directory, this.zip64Above));
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end(() => resolve());
    });
  }

  private newRecord(name: string, streamed: boolean): ZipEntryRecord {
    const record: ZipEntryRecord = {
      name: Buffer.from(name.replace(/^\/+/, ''), 'utf8'),
      crc32: 0,
      compressedSize: 0,
      uncompressedSize: 0,
      offset: this.offset,
      streamed,
      ...this.time,
    };
    this.records.push(record);
    return record;
  }

  private checkIdle(what: string): void {
    if (this.finished)
      throw new EtlError('report.workbook_order', `zip: ${what} added after the central directory`);
    if (this.streaming)
      throw new EtlError(
        'report.workbook_order',
        `zip: ${what} added while ${this.streaming.name} is still being written`,
      );
  }

  private write(bytes: Buffer): void {
    this.out.write(bytes);
    this.offset += bytes.length;
  }
}

/** A part being streamed: its bytes deflated into the output in order, counted and checksummed on the way. */
export class ZipEntryStream {
  private crc = 0;
  private size = 0;
  private compressedSize = 0;
  private readonly ended: Promise<void>;

  constructor(
    private readonly record: ZipEntryRecord,
    private readonly deflate: DeflateRaw,
    out: Writable,
    private readonly onClosed: (compressedSize: number) => void,
  ) {
    deflate.on('data', (chunk: Buffer) => {
      this.compressedSize += chunk.length;
    });
    deflate.pipe(out, { end: false });
    this.ended = new Promise((resolve, reject) => {
      deflate.once('end', resolve);
      deflate.once('error', reject);
    });
    this.ended.catch(() => undefined); // awaited in close(); a workbook given up never closes it
  }

  get name(): string {
    return this.record.name.toString('utf8');
  }

  /** Adds bytes to the part (a string as UTF-8). */
  write(data: Buffer | string): void {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (bytes.length === 0) return;
    this.crc = crc32(bytes, this.crc);
    this.size += bytes.length;
    this.deflate.write(bytes);
  }

  /** Resolves when the deflate can take more (it has passed its input on, and the output has taken that). */
  async ready(): Promise<void> {
    while (this.deflate.writableNeedDrain) {
      await new Promise<void>((resolve, reject) => {
        const done = () => {
          this.deflate.off('error', failed);
          resolve();
        };
        const failed = (error: Error) => {
          this.deflate.off('drain', done);
          reject(error);
        };
        this.deflate.once('drain', done);
        this.deflate.once('error', failed);
      });
    }
  }

  /** Ends the part: the rest of its deflate is written, then its data descriptor. */
  async close(): Promise<void> {
    this.deflate.end();
    await this.ended;
    this.deflate.unpipe();
    Object.assign(this.record, {
      crc32: this.crc,
      compressedSize: this.compressedSize,
      uncompressedSize: this.size,
    });
    this.onClosed(this.compressedSize);
  }
}

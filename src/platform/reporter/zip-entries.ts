// The entries of a ZIP file held in memory (PKWARE APPNOTE 4.3: the end of central directory record, the
// central directory's file headers, each entry's local header), for reading an XLSX report file's parts.
// Only what such a file uses is read: stored or deflated entries, classic (not zip64) sizes, no encryption;
// anything else is `undefined` from zipEntries, and the caller reads the file another way.
// Invariant: an entry's data is a view of the file's bytes, never past its end.
import { createInflateRaw, inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: 0 | 8;
  /** The compressed data, a view of the file's bytes. */
  data: Uint8Array;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
/** The end record is 22 bytes, followed by a comment of up to 65,535. */
const END_RECORD_SEARCH = 22 + 0xffff;
const ZIP64_MARK = 0xffff_ffff;

/** The entries by name, or undefined when the file uses what this reader does not. */
export function zipEntries(file: Uint8Array): Map<string, ZipEntry> | undefined {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  let end = -1;
  for (let at = file.length - 22; at >= Math.max(0, file.length - END_RECORD_SEARCH); at--)
    if (view.getUint32(at, true) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  if (end < 0) return undefined;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries = new Map<string, ZipEntry>();
  for (let n = 0; n < count; n++) {
    if (at + 46 > file.length || view.getUint32(at, true) !== CENTRAL_FILE_HEADER) return undefined;
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const offset = view.getUint32(at + 42, true);
    const name = Buffer.from(file.buffer, file.byteOffset + at + 46, nameLength).toString('utf8');
    at += 46 + skip;
    // encrypted, another compression, or zip64 sizes: not read here
    if ((flags & 1) !== 0 || (method !== 0 && method !== 8) || size === ZIP64_MARK || offset === ZIP64_MARK)
      return undefined;
    if (offset + 30 > file.length || view.getUint32(offset, true) !== LOCAL_FILE_HEADER) return undefined;
    const start = offset + 30 + view.getUint16(offset + 26, true) + view.getUint16(offset + 28, true);
    if (start + size > file.length) return undefined;
    entries.set(name, { name, method, data: file.subarray(start, start + size) });
  }
  return entries;
}

/** An entry's whole content (for the small parts: the workbook, its relations, the shared strings). */
export function entryBytes(entry: ZipEntry): Buffer {
  return entry.method === 0 ? Buffer.from(entry.data) : inflateRawSync(entry.data);
}

/** An entry's content chunk by chunk, inflated as it is read (the worksheet: never whole in memory). */
export async function* entryChunks(entry: ZipEntry): AsyncGenerator<Buffer> {
  if (entry.method === 0) {
    yield Buffer.from(entry.data);
    return;
  }
  const inflate = createInflateRaw({ chunkSize: 256 * 1024 });
  inflate.end(entry.data);
  for await (const chunk of inflate) yield chunk as Buffer;
}

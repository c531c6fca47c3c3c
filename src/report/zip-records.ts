// The byte layouts of a ZIP file's records (PKWARE APPNOTE 6.3.x, section 4.3): the local file header, the data
// descriptor after a streamed entry, the central directory's file header and its end records, with the zip64
// forms used only where a size, an offset or the number of entries does not fit the classic fields.

/** What the central directory records of one entry. */
export interface ZipEntryRecord {
  /** The name's UTF-8 bytes. */
  name: Buffer;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Where its local file header starts. */
  offset: number;
  /** Sizes follow the data in a descriptor (general purpose flag bit 3). */
  streamed: boolean;
  /** The DOS time and date of the entry. */
  dosTime: number;
  dosDate: number;
}

/** The largest value of a 4-byte field; a larger one is written as this and given in the zip64 extra field. */
export const MAX_UINT32 = 0xffff_ffff;
const MAX_UINT16 = 0xffff;

const DEFLATE = 8;
/** 2.0: deflate; 4.5: zip64. */
const VERSION_DEFLATE = 20;
const VERSION_ZIP64 = 45;
/** Bit 3: sizes and CRC in the data descriptor; bit 11: the name is UTF-8. */
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
/**
 * "Version made by": Unix (3) in the upper byte, and the external attributes a regular file rw-r--r--. With
 * MS-DOS (0) there, Info-ZIP's unzip 6.0 warned that a zip64 entry's UTF-8 name in its local header differs.
 */
const MADE_BY_UNIX = 3 << 8;
const REGULAR_FILE_MODE = 0o100644;

/** The DOS time and date (local time, 2-second resolution) of `date`. */
export function dosDateTime(date: Date): { dosTime: number; dosDate: number } {
  const year = Math.max(date.getFullYear(), 1980);
  return {
    dosTime: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    dosDate: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/** The local file header: with its sizes and CRC when known, else zeros and the descriptor flag. */
export function localFileHeader(entry: ZipEntryRecord): Buffer {
  const header = Buffer.alloc(30 + entry.name.length);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(VERSION_DEFLATE, 4);
  header.writeUInt16LE(FLAG_UTF8 | (entry.streamed ? FLAG_DESCRIPTOR : 0), 6);
  header.writeUInt16LE(DEFLATE, 8);
  header.writeUInt16LE(entry.dosTime, 10);
  header.writeUInt16LE(entry.dosDate, 12);
  if (!entry.streamed) {
    header.writeUInt32LE(entry.crc32, 14);
    header.writeUInt32LE(entry.compressedSize, 18);
    header.writeUInt32LE(entry.uncompressedSize, 22);
  }
  header.writeUInt16LE(entry.name.length, 26);
  header.writeUInt16LE(0, 28);
  entry.name.copy(header, 30);
  return header;
}

/** The data descriptor after a streamed entry's data: 8-byte sizes when either is over 4 GB (as zip64 says). */
export function dataDescriptor(entry: ZipEntryRecord): Buffer {
  const wide = entry.compressedSize > MAX_UINT32 || entry.uncompressedSize > MAX_UINT32;
  const descriptor = Buffer.alloc(wide ? 24 : 16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(entry.crc32, 4);
  if (wide) {
    descriptor.writeBigUInt64LE(BigInt(entry.compressedSize), 8);
    descriptor.writeBigUInt64LE(BigInt(entry.uncompressedSize), 16);
  } else {
    descriptor.writeUInt32LE(entry.compressedSize, 8);
    descriptor.writeUInt32LE(entry.uncompressedSize, 12);
  }
  return descriptor;
}

/**
 * The central directory's header of an entry. A size or offset over `zip64Above` (4 GB less one; lower only to
 * test the zip64 form) is written as 0xFFFFFFFF and given in the zip64 extended information extra field.
 */
export function centralFileHeader(entry: ZipEntryRecord, zip64Above = MAX_UINT32): Buffer {
  const wide = [entry.uncompressedSize, entry.compressedSize, entry.offset].map((v) => v > zip64Above);
  const extraValues = [entry.uncompressedSize, entry.compressedSize, entry.offset].filter((_, i) => wide[i]);
  const extraLength = extraValues.length === 0 ? 0 : 4 + 8 * extraValues.length;
  const header = Buffer.alloc(46 + entry.name.length + extraLength);
  const version = extraLength > 0 ? VERSION_ZIP64 : VERSION_DEFLATE;
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(MADE_BY_UNIX | version, 4); // made by: Unix, this version
  header.writeUInt16LE(version, 6);
  header.writeUInt16LE(FLAG_UTF8 | (entry.streamed ? FLAG_DESCRIPTOR : 0), 8);
  header.writeUInt16LE(DEFLATE, 10);
  header.writeUInt16LE(entry.dosTime, 12);
  header.writeUInt16LE(entry.dosDate, 14);
  header.writeUInt32LE(entry.crc32, 16);
  header.writeUInt32LE(wide[1] ? MAX_UINT32 : entry.compressedSize, 20);
  header.writeUInt32LE(wide[0] ? MAX_UINT32 : entry.uncompressedSize, 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt16LE(extraLength, 30);
  // comment length, disk number, internal attributes: 0
  header.writeUInt32LE(REGULAR_FILE_MODE * 0x10000, 38);
  header.writeUInt32LE(wide[2] ? MAX_UINT32 : entry.offset, 42);
  entry.name.copy(header, 46);
  if (extraLength > 0) {
    let at = 46 + entry.name.length;
    header.writeUInt16LE(0x0001, at);
    header.writeUInt16LE(extraLength - 4, at + 2);
    at += 4;
    for (const value of extraValues) {
      header.writeBigUInt64LE(BigInt(value), at);
      at += 8;
    }
  }
  return header;
}

/** Where the central directory is, and what it holds. */
export interface CentralDirectory {
  entries: number;
  offset: number;
  size: number;
}

/**
 * The end of the central directory: the classic record, preceded by the zip64 end record and its locator when
 * the directory's offset or size is over `zip64Above` or the entries over 65,535.
 */
export function endOfCentralDirectory(directory: CentralDirectory, zip64Above = MAX_UINT32): Buffer {
  const zip64 =
    directory.offset > zip64Above || directory.size > zip64Above || directory.entries >= MAX_UINT16;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const entries = zip64 ? MAX_UINT16 : directory.entries;
  end.writeUInt16LE(entries, 8);
  end.writeUInt16LE(entries, 10);
  end.writeUInt32LE(zip64 ? MAX_UINT32 : directory.size, 12);
  end.writeUInt32LE(zip64 ? MAX_UINT32 : directory.offset, 16);
  if (!zip64) return end;
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4); // the size of the rest of the record
  record.writeUInt16LE(VERSION_ZIP64, 12);
  record.writeUInt16LE(VERSION_ZIP64, 14);
  record.writeBigUInt64LE(BigInt(directory.entries), 24);
  record.writeBigUInt64LE(BigInt(directory.entries), 32);
  record.writeBigUInt64LE(BigInt(directory.size), 40);
  record.writeBigUInt64LE(BigInt(directory.offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  // the zip64 end record starts right after the central directory
  locator.writeBigUInt64LE(BigInt(directory.offset + directory.size), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([record, locator, end]);
}

// Reads a spool file one bounded batch at a time (a live spool's too, up to its acknowledged end): the whole records after byte `from`, up to `maxBytes` of
// lines and `maxRecords` records (always at least one line, however long), each with its size and the
// offset after it. A spool left behind may be hundreds of megabytes: its loader holds one batch, never the
// file. A last line without its newline (never acknowledged) is not read; a line that is not JSON (a write
// cut short, never acknowledged) is passed over.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { SpoolRecord } from './spool.js';

/** A spooled record with the bytes of its line and, when read from a file, the offset after that line. */
export interface SizedRecord {
  record: SpoolRecord;
  bytes: number;
  end?: number;
}

export interface SpoolBatchLimits {
  maxBytes: number;
  maxRecords: number;
}

/** The records of one batch and the offset it reaches (`from` itself when the file has no whole line left). */
export function readSpoolBatch(
  path: string,
  from: number,
  limits: SpoolBatchLimits,
  upTo = Number.POSITIVE_INFINITY,
): { records: SizedRecord[]; end: number } {
  const chunk = readWholeLines(path, from, limits.maxBytes, upTo);
  const records: SizedRecord[] = [];
  let start = 0;
  while (records.length < limits.maxRecords) {
    const newline = chunk.indexOf(10, start);
    if (newline < 0) break;
    const line = chunk.subarray(start, newline).toString('utf8');
    const bytes = newline + 1 - start;
    start = newline + 1;
    const record = parseLine(line);
    if (record) records.push({ record, bytes, end: from + start });
  }
  return { records, end: from + start };
}

/**
 * Reads from `from` up to `maxBytes`, or further until the first newline when one line is longer; never past
 * byte `upTo` (a live spool's acknowledged end: lines after it may still be on their way to the disk).
 */
function readWholeLines(path: string, from: number, maxBytes: number, upTo: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const available = Math.max(0, Math.min(fstatSync(fd).size, upTo) - from);
    let want = Math.min(Math.max(1, maxBytes), available);
    for (;;) {
      const buffer = Buffer.allocUnsafe(want);
      const read = readSync(fd, buffer, 0, want, from);
      const chunk = buffer.subarray(0, read);
      if (chunk.includes(10) || read < want || want >= available) return chunk;
      want = Math.min(want * 2, available);
    }
  } finally {
    closeSync(fd);
  }
}

function parseLine(line: string): SpoolRecord | undefined {
  if (line.trim() === '') return undefined;
  try {
    return JSON.parse(line) as SpoolRecord;
  } catch {
    // not a whole line (a write cut short and not truncated): it was never acknowledged
    return undefined;
  }
}

// What a downloaded report file is, told by its content, never by its name or Content-Type (the seeds show one
// fileType, XLSX, and nothing of the file; a server may ignore the type asked): a zip (an XLSX workbook) starts
// with PK\x03\x04, an OLE compound file (a legacy XLS workbook, not read) with D0 CF 11 E0, anything else is
// text: UTF-8 (a BOM skipped), UTF-16 by its BOM, else Windows-1251 when the bytes are not UTF-8; and a CSV's
// delimiter, sniffed from its first records. Invariant: the same bytes always read the same way.
export type ReportFileType = 'XLSX' | 'XLS' | 'CSV';

/** The file's type by its first bytes. */
export function sniffFileType(head: Uint8Array): ReportFileType {
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'XLSX';
  if (head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0) return 'XLS';
  return 'CSV';
}

export interface DecodedText {
  text: string;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1251';
  bom: boolean;
}

/** The text of a CSV file's bytes, its byte order mark left out. */
export function decodeReportText(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(bytes), encoding: 'utf-16le', bom: true };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(bytes), encoding: 'utf-16be', bom: true };
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    // the decoder drops a UTF-8 BOM itself
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8', bom };
  } catch {
    // not UTF-8: the Cyrillic code page a Russian-language server's CSV is likely in
    return { text: new TextDecoder('windows-1251').decode(bytes), encoding: 'windows-1251', bom: false };
  }
}

/** The delimiters a CSV file may use, the most likely first (ties go to the earlier). */
export const CSV_DELIMITERS = [',', ';', '\t', '|'] as const;

/** Records of the file's start the delimiter is judged on (the last, maybe cut, is left out). */
const SNIFFED_RECORDS = 20;
const SNIFFED_CHARACTERS = 64 * 1024;

/** Field counts of the first records split by `delimiter` (fields in double quotes hold it and line breaks). */
function fieldCounts(text: string, delimiter: string): number[] {
  const counts: number[] = [];
  let fields = 1;
  let quoted = false;
  let any = false;
  const end = Math.min(text.length, SNIFFED_CHARACTERS);
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; at < end && counts.length < SNIFFED_RECORDS; at++) {
    const c = text[at];
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === delimiter) fields++;
    else if (c === '\n' || c === '\r') {
      if (any) counts.push(fields);
      fields = 1;
      any = false;
      continue;
    }
    any = true;
  }
  // the file's last record, without a line end after it
  if (any && at >= text.length) counts.push(fields);
  return counts;
}

/**
 * The delimiter that splits the first records into the same number of fields, more than one, the most fields
 * winning (`fallback` when none does: a file of one column).
 */
export function sniffDelimiter(text: string, fallback = ','): string {
  let best: { delimiter: string; fields: number } = { delimiter: fallback, fields: 1 };
  for (const delimiter of CSV_DELIMITERS) {
    const counts = fieldCounts(text, delimiter);
    if (counts.length === 0) continue;
    const fields = counts[0]!;
    if (fields > best.fields && counts.every((n) => n === fields)) best = { delimiter, fields };
  }
  return best.delimiter;
}

// Streams a downloaded CSV report through csv-parse (RFC 4180: quoted fields with the delimiter, doubled quotes
// and line breaks inside; CRLF, LF or CR line ends, mixed; a UTF-8 BOM skipped). Invariant: malformed input (text
// after a closing quote, a quote inside an unquoted field, an unterminated quote) is a CsvSyntaxError naming
// the line its record starts on, never a silently shifted row; rows reach onRow one by one, none is held.
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';

export class CsvSyntaxError extends Error {}

/** What csv-parse's error codes mean for a report file. */
const REASONS: Record<string, string> = {
  CSV_INVALID_CLOSING_QUOTE: 'text after the closing quote of a field',
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is never closed',
  INVALID_OPENING_QUOTE: 'a quote inside a field that does not start with one',
};

/** Line breaks inside the fields of a record (only quoted fields hold them). */
function countLineBreaks(fields: string[]): number {
  let breaks = 0;
  for (const field of fields) breaks += field.match(/\r\n|\r|\n/g)?.length ?? 0;
  return breaks;
}

/**
 * Feeds text chunks (decoded: read the file with an encoding) through the parser and calls onRow for every
 * record with the line it starts on; returns the number of records. An empty line is a record of one empty
 * field (the caller's width check refuses it in a file of several columns).
 */
export async function parseCsvStream(
  chunks: AsyncIterable<string>,
  delimiter: string,
  onRow: (fields: string[], line: number) => void,
): Promise<number> {
  let line = 1; // the line the next record starts on
  let rows = 0;
  const parser = parse({
    delimiter,
    bom: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true, // widths are checked by the caller, which names the file
    skip_empty_lines: false,
    // called in order as each record is parsed: the row is handed over here and nothing is buffered
    on_record: (record: string[]) => {
      onRow(record, line);
      rows++;
      line += 1 + countLineBreaks(record);
      return null;
    },
  });
  const discard = new Writable({ objectMode: true, write: (_record, _encoding, done) => done() });
  try {
    await pipeline(Readable.from(chunks), parser, discard);
  } catch (error) {
    if (error instanceof CsvError)
      throw new CsvSyntaxError(`line ${line}: ${REASONS[error.code] ?? error.message}`, { cause: error });
    throw error;
  }
  return rows;
}

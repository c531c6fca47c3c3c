// Reads a few columns of a CSV text (RFC 4180: fields in double quotes may hold the delimiter, line breaks
// and "" for a quote; records end at LF or CRLF; a BOM and empty lines are skipped) without building the
// other fields: the statuses report files hold twenty columns and the sync wants two, and csv-parse, which
// builds every field character by character, was a fifth of the sync's CPU. The fields not wanted are
// skipped (a scan to the next delimiter, or to the closing quote), only the wanted ones are copied out (never
// slices that would keep the whole text alive).
// Invariant: the same values csv-parse gives, or a CsvShapeError naming the first fault (a quoted field
// left open, text after a closing quote or a lone CR, a quote inside an unquoted field, a record whose field count is
// not the header's); never a partial answer without an error.

export class CsvShapeError extends Error {}

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

/**
 * Calls `onRow` with the values of `wanted` (in that order) of each data record; returns the number of
 * data records. Throws CsvShapeError when a wanted column is not in the header (the first record).
 */
export function pickCsvColumns(
  text: string,
  wanted: readonly string[],
  onRow: (values: string[]) => void,
  delimiter = ',',
): number {
  const reader = new CsvCursor(text, delimiter);
  const header = reader.nextRecord();
  if (header === undefined) throw new CsvShapeError('the file is empty: no header');
  const positions = wanted.map((name) => header.indexOf(name));
  const missing = wanted.filter((_, n) => positions[n]! < 0);
  if (missing.length > 0) throw new CsvShapeError(`the header has no ${missing.join(' or ')} column`);
  const slotOf = new Int32Array(header.length).fill(-1);
  positions.forEach((position, slot) => {
    slotOf[position] = slot;
  });
  let rows = 0;
  while (reader.skipEmptyLines()) {
    const values = reader.pickRecord(slotOf, wanted.length);
    onRow(values);
    rows++;
  }
  return rows;
}

/**
 * `value` as a string of its own: V8 makes a slice of 13 characters or more point into its parent, so the ids
 * kept as a window's status keys held every report file's whole text (at 1M messages, with two reports read
 * ahead, 50-60 MB of peak RSS). Adding a character and slicing it off copies the characters.
 */
export function ownCopy(value: string): string {
  return ` ${value}`.slice(1);
}

/** The slots of a record's every field (slotOf for pickRecord): the field n in the slot n. */
export function everyField(width: number): Int32Array {
  return Int32Array.from({ length: width }, (_, n) => n);
}

/** A position in the text, moved record by record. */
export class CsvCursor {
  private at: number;
  private readonly end: number;
  private readonly delimiter: number;
  private record = 1;

  /** `delimiter`: one character, not a quote nor a line break. */
  constructor(
    private readonly text: string,
    delimiter = ',',
  ) {
    this.at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    this.end = text.length;
    this.delimiter = delimiter.charCodeAt(0);
  }

  /** Moves past empty lines; false at the end of the text. */
  skipEmptyLines(): boolean {
    for (;;) {
      const c = this.text.charCodeAt(this.at);
      if (c === LF) this.at++;
      else if (c === CR && this.text.charCodeAt(this.at + 1) === LF) this.at += 2;
      else return this.at < this.end;
    }
  }

  /** Every field of the next non-empty record (the header), or undefined at the end. */
  nextRecord(): string[] | undefined {
    if (!this.skipEmptyLines()) return undefined;
    const fields: string[] = [];
    for (;;) {
      fields.push(this.text.charCodeAt(this.at) === QUOTE ? this.quoted(true)! : this.unquoted(true)!);
      if (this.endOfField()) return fields;
    }
  }

  /** The next record's fields whose slot is not -1, by slot; checks its field count against the header's. */
  pickRecord(slotOf: Int32Array, slots: number): string[] {
    this.record++;
    const values = new Array<string>(slots);
    for (let field = 0; ; field++) {
      const slot = field < slotOf.length ? slotOf[field]! : -1;
      const keep = slot >= 0;
      const value = this.text.charCodeAt(this.at) === QUOTE ? this.quoted(keep) : this.unquoted(keep);
      if (keep) values[slot] = value!;
      if (!this.endOfField()) continue;
      if (field + 1 !== slotOf.length)
        throw new CsvShapeError(`record ${this.record} has ${field + 1} fields, the header ${slotOf.length}`);
      return values;
    }
  }

  /** Past the delimiter after a field: false after a delimiter (another field follows), true at a record's end. */
  private endOfField(): boolean {
    const c = this.text.charCodeAt(this.at);
    if (c === this.delimiter) {
      this.at++;
      return false;
    }
    if (this.at >= this.end) return true;
    if (c === LF) this.at++;
    else if (c === CR && this.text.charCodeAt(this.at + 1) === LF) this.at += 2;
    else
      throw new CsvShapeError(
        `record ${this.record}: a field is followed by text, not the delimiter or a line end`,
      );
    return true;
  }

  private unquoted(keep: boolean): string | undefined {
    const text = this.text;
    const start = this.at;
    const delimiter = this.delimiter;
    let at = start;
    for (; at < this.end; at++) {
      const c = text.charCodeAt(at);
      if (c === delimiter || c === LF || c === CR) break;
      if (c === QUOTE) throw new CsvShapeError(`record ${this.record}: a quote inside an unquoted field`);
    }
    this.at = at;
    return keep ? ownCopy(text.slice(start, at)) : undefined;
  }

  private quoted(keep: boolean): string | undefined {
    const text = this.text;
    let value = '';
    let from = this.at + 1;
    for (;;) {
      const quote = text.indexOf('"', from);
      if (quote < 0) throw new CsvShapeError(`record ${this.record}: a quoted field is not closed`);
      if (keep) value += text.slice(from, quote);
      if (text.charCodeAt(quote + 1) !== QUOTE) {
        this.at = quote + 1;
        return keep ? ownCopy(value) : undefined;
      }
      if (keep) value += '"';
      from = quote + 2;
    }
  }
}

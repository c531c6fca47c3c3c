// A streaming RFC 4180 CSV parser for downloaded reports: quoted fields (delimiter, quotes doubled, line
// breaks inside), CRLF or LF line ends, a UTF-8 BOM skipped. Invariant: malformed input (text after a closing
// quote, an unterminated quote) is an error naming the line, never a silently shifted row.
export class CsvSyntaxError extends Error {}

/**
 * Feeds text chunks (decoded: read the file with an encoding) through the parser and calls onRow for every
 * record; returns the number of records.
 */
export async function parseCsvStream(
  chunks: AsyncIterable<string>,
  delimiter: string,
  onRow: (fields: string[], line: number) => void,
): Promise<number> {
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let closed = false;
  let started = false;
  let skipLf = false;
  let line = 1;
  let rowLine = 1;
  let rows = 0;
  let first = true;
  let carry = '';
  const endRow = () => {
    row.push(field);
    onRow(row, rowLine);
    rows++;
    row = [];
    field = '';
    started = false;
    closed = false;
  };
  const feed = (text: string, final: boolean) => {
    for (let n = 0; n < text.length; n++) {
      const ch = text[n]!;
      if (skipLf) {
        skipLf = false;
        if (ch === '\n') continue;
      }
      if (quoted) {
        if (ch !== '"') {
          if (ch === '\n') line++;
          field += ch;
        } else if (n + 1 === text.length && !final) {
          carry = '"'; // is it "" or a closing quote? the next chunk tells
        } else if (text[n + 1] === '"') {
          field += '"';
          n++;
        } else {
          quoted = false;
          closed = true;
        }
        continue;
      }
      if (ch === delimiter) {
        row.push(field);
        field = '';
        started = false;
        closed = false;
      } else if (ch === '\n' || ch === '\r') {
        endRow();
        line++;
        rowLine = line;
        skipLf = ch === '\r';
      } else if (closed) {
        throw new CsvSyntaxError(`line ${line}: text after the closing quote of a field`);
      } else if (ch === '"' && !started) {
        quoted = true;
        started = true;
      } else {
        field += ch;
        started = true;
      }
    }
  };
  for await (const chunk of chunks) {
    let text = carry + chunk;
    carry = '';
    if (first && text.length > 0) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    feed(text, false);
  }
  if (carry !== '') {
    const text = carry;
    carry = '';
    feed(text, true);
  }
  if (quoted) throw new CsvSyntaxError(`line ${rowLine}: a quoted field is never closed`);
  if (started || closed || row.length > 0) endRow();
  return rows;
}

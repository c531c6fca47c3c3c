// The least any reader of a CSV file does with it: split it into records of fields (RFC 4180: a field in
// double quotes may hold commas, line breaks and "" for a quote; a record ends at LF or CRLF; empty lines
// are skipped). The parse floor's replay runs it on every statuses report file the sync downloads, so the
// floor pays for a CSV file what any design of the sync must. Unquoted fields are sliced, not copied
// character by character; nothing beyond the split (no header lookup, no row checks) is done.

/** Calls `onRecord` with each record's fields, in order; returns the number of records. */
export function splitCsv(text: string, onRecord: (fields: string[]) => void = () => {}): number {
  let records = 0;
  let fields: string[] = [];
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const end = text.length;
  const finishRecord = () => {
    if (fields.length > 1 || fields[0] !== '') {
      onRecord(fields);
      records++;
    }
    fields = [];
  };
  while (at < end) {
    let value: string;
    if (text.charCodeAt(at) === 0x22) {
      [value, at] = quotedField(text, at);
    } else {
      let stop = at;
      for (; stop < end; stop++) {
        const c = text.charCodeAt(stop);
        if (c === 0x2c || c === 0x0a || c === 0x0d) break;
      }
      value = text.slice(at, stop);
      at = stop;
    }
    fields.push(value);
    const c = text.charCodeAt(at);
    if (c === 0x2c) {
      at++;
      if (at === end) fields.push('');
      continue;
    }
    if (at < end && c !== 0x0a && c !== 0x0d) throw new Error(`a character after a closing quote at ${at}`);
    at += c === 0x0d && text.charCodeAt(at + 1) === 0x0a ? 2 : 1;
    finishRecord();
  }
  if (fields.length > 0) finishRecord();
  return records;
}

/** The field quoted at `start` (its quotes removed, "" read as "), and where its closing quote ends. */
function quotedField(text: string, start: number): [string, number] {
  let value = '';
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) throw new Error(`an unterminated quoted field at character ${start}`);
    value += text.slice(from, quote);
    if (text.charCodeAt(quote + 1) !== 0x22) return [value, quote + 1];
    value += '"';
    from = quote + 2;
  }
}

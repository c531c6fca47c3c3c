// Where a JSON text stops being JSON, as a line and a column (1-based) a person finds in an editor: Node's
// JSON.parse says "position 97", or only quotes the text near the fault. A small scanner of JSON's grammar
// (RFC 8259) finds the first character that cannot continue the text; it never returns the text itself.

/** A fault's place: line and column (1-based, the column in characters of that line). */
export interface JsonErrorPlace {
  line: number;
  column: number;
}

class Fault {
  constructor(readonly offset: number) {}
}

/** The offset of the first fault of `text`, or undefined when it is JSON. */
function firstFault(text: string): number | undefined {
  let i = 0;
  const fail = (): never => {
    throw new Fault(i);
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail();
      const code = text.charCodeAt(i);
      if (code === 0x22) return void i++;
      if (code < 0x20) fail();
      if (code === 0x5c) {
        i++;
        const escaped = text[i];
        if (escaped === 'u') {
          i++;
          for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail();
        } else if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) i++;
        else fail();
      } else i++;
    }
  };
  const digits = () => {
    if (!/[0-9]/.test(text[i] ?? '')) fail();
    while (/[0-9]/.test(text[i] ?? '')) i++;
  };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  const value = (depth: number): void => {
    if (depth > 1000) fail();
    space();
    const ch = text[i];
    if (ch === '{') {
      i++;
      space();
      if (text[i] === '}') return void i++;
      for (;;) {
        space();
        if (text[i] !== '"') fail();
        string();
        space();
        if (text[i] !== ':') fail();
        i++;
        value(depth + 1);
        space();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (ch === '[') {
      i++;
      space();
      if (text[i] === ']') return void i++;
      for (;;) {
        value(depth + 1);
        space();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (ch === '"') string();
    else if (ch === 't') literal('true');
    else if (ch === 'f') literal('false');
    else if (ch === 'n') literal('null');
    else if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) number();
    else fail();
  };
  try {
    value(0);
    space();
    if (i < text.length) fail();
    return undefined;
  } catch (error) {
    if (error instanceof Fault) return Math.min(error.offset, text.length);
    throw error;
  }
}

/** The line and column of the first fault of `text` as JSON, or undefined when JSON.parse would take it. */
export function locateJsonError(text: string): JsonErrorPlace | undefined {
  const offset = firstFault(text);
  if (offset === undefined) return undefined;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

// JSON.parse whose error never quotes the text. Node 20's message quotes the characters around the fault
// (`Unexpected token 'r', "root:*:190"... is not valid JSON`), and the text may hold a secret: a webhook key
// in a body, a token in a configuration file, the file a planted link leads to. The error here says the line
// and column (1-based) and what was expected there, found by a small scanner of JSON's grammar, run only
// once JSON.parse has failed; nothing of the text is in it. Invariant: the message holds no input character.

/** A text that is not JSON: where (line and column, 1-based) and what was expected there. */
export class JsonSyntaxError extends SyntaxError {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly problem: string,
  ) {
    super(
      line === 0
        ? `not valid JSON: ${problem}`
        : `not valid JSON at line ${line}, column ${column}: ${problem}`,
    );
    this.name = 'JsonSyntaxError';
  }
}

/**
 * `parse(text)` (JSON.parse by default), its SyntaxError replaced by a JsonSyntaxError naming the line and
 * column of the fault. The original error is not kept (not even as `cause`: its message quotes the text).
 */
export function parseJsonText(text: string, parse: (text: string) => unknown = JSON.parse): unknown {
  try {
    return parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw jsonSyntaxError(text);
  }
}

/** The error for a text JSON.parse refused: the scanner's first fault, or no place when it finds none. */
export function jsonSyntaxError(text: string): JsonSyntaxError {
  const fault = findJsonFault(text);
  if (fault === undefined) return new JsonSyntaxError(0, 0, 'the parser refused it');
  const before = text.slice(0, fault.offset);
  const line = before.split('\n').length;
  const column = fault.offset - (before.lastIndexOf('\n') + 1) + 1;
  return new JsonSyntaxError(line, column, fault.problem);
}

interface JsonFault {
  offset: number;
  problem: string;
}

const SPACE = /[ \t\n\r]*/y;
const DIGIT = /[0-9]/;
const HEX_DIGIT = /[0-9a-fA-F]/;

/** A cursor over the text: where it is, and how to read one token of JSON from there. */
class JsonCursor {
  at = 0;
  constructor(readonly text: string) {}

  skipSpace(): void {
    SPACE.lastIndex = this.at;
    SPACE.test(this.text);
    this.at = SPACE.lastIndex;
  }

  peek(): string | undefined {
    return this.text[this.at];
  }

  fault(problem: string): JsonFault {
    return { offset: this.at, problem };
  }

  /** An escape from its backslash; its fault at the first character that cannot continue it (V8's place). */
  escape(): JsonFault | undefined {
    this.at++;
    const escaped = this.peek();
    if (escaped === 'u') {
      this.at++;
      for (let k = 0; k < 4; k++, this.at++)
        if (!HEX_DIGIT.test(this.peek() ?? '')) return this.fault('an invalid \\u escape inside a string');
      return undefined;
    }
    if (escaped === undefined || !'"\\/bfnrt'.includes(escaped))
      return this.fault('an invalid escape inside a string');
    this.at++;
    return undefined;
  }

  /** A string token from its opening quote; a fault where it breaks. */
  string(): JsonFault | undefined {
    this.at++;
    for (;;) {
      const c = this.text.charCodeAt(this.at);
      if (Number.isNaN(c)) return this.fault('the text ends inside a string');
      if (c === 0x22) {
        this.at++;
        return undefined;
      }
      if (c < 0x20) return this.fault('a control character inside a string (write it as an escape)');
      if (c === 0x5c) {
        const fault = this.escape();
        if (fault !== undefined) return fault;
      } else this.at++;
    }
  }

  /** A number, its fault at the first character that cannot continue it (where JSON.parse puts it). */
  number(): JsonFault | undefined {
    const digits = (): boolean => {
      const start = this.at;
      while (DIGIT.test(this.text[this.at] ?? '')) this.at++;
      return this.at > start;
    };
    if (this.peek() === '-') this.at++;
    if (this.peek() === '0') this.at++;
    else if (!digits()) return this.fault('a digit was expected');
    if (this.peek() === '.') {
      this.at++;
      if (!digits()) return this.fault('a digit was expected after the decimal point');
    }
    if (this.peek() === 'e' || this.peek() === 'E') {
      this.at++;
      if (this.peek() === '+' || this.peek() === '-') this.at++;
      if (!digits()) return this.fault('a digit was expected in the exponent');
    }
    return undefined;
  }

  /** true, false or null, its fault at the first character that differs. */
  literal(word: string): JsonFault | undefined {
    for (const ch of word) {
      if (this.peek() !== ch) return this.fault(`${word} was expected`);
      this.at++;
    }
    return undefined;
  }

  /** A string, number, true, false or null; a fault where none starts. */
  scalar(): JsonFault | undefined {
    const c = this.peek();
    if (c === undefined) return this.fault('the text ends where a value was expected');
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const literal of ['true', 'false', 'null']) if (c === literal[0]) return this.literal(literal);
    return this.fault('a value (an object, array, string, number, true, false or null) was expected');
  }
}

/** The first place `text` breaks JSON's grammar, or undefined when it keeps to it (iterative: any depth). */
export function findJsonFault(text: string): JsonFault | undefined {
  const cursor = new JsonCursor(text);
  const closers: string[] = [];
  let expect: 'value' | 'name' | 'next' = 'value';
  for (;;) {
    cursor.skipSpace();
    const c = cursor.peek();
    if (expect === 'value') {
      if (c === '{' || c === '[') {
        cursor.at++;
        cursor.skipSpace();
        const closer = c === '{' ? '}' : ']';
        if (cursor.peek() === closer) {
          cursor.at++;
          expect = 'next';
        } else {
          closers.push(closer);
          expect = closer === '}' ? 'name' : 'value';
        }
        continue;
      }
      const fault = cursor.scalar();
      if (fault !== undefined) return fault;
      expect = 'next';
    } else if (expect === 'name') {
      if (c !== '"') return cursor.fault('a property name in double quotes was expected');
      const fault = cursor.string();
      if (fault !== undefined) return fault;
      cursor.skipSpace();
      if (cursor.peek() !== ':') return cursor.fault("':' was expected after the property name");
      cursor.at++;
      expect = 'value';
    } else {
      const closer = closers.at(-1);
      if (closer === undefined)
        return c === undefined ? undefined : cursor.fault('more text follows the JSON value');
      if (c === ',') {
        cursor.at++;
        expect = closer === '}' ? 'name' : 'value';
      } else if (c === closer) {
        cursor.at++;
        closers.pop();
      } else
        return cursor.fault(
          c === undefined
            ? `the text ends before its closing '${closer}'`
            : `',' or '${closer}' was expected`,
        );
    }
  }
}

/** ` (column C: <what>)` of a JSON error in a text of one line (a JSONL record); empty for another error. */
export function jsonFaultColumn(error: unknown): string {
  return error instanceof JsonSyntaxError && error.line > 0
    ? ` (column ${error.column}: ${error.problem})`
    : '';
}

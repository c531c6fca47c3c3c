// parseJsonText: a text that is not JSON fails with the line and column of the fault, and nothing of the text
// (Node 20's own message quotes the characters around the fault: a key in a webhook body, a token in a
// configuration file, the first line of /etc/shadow). The place is checked against V8's own position where V8
// gives one, and the scanner against JSON.parse on texts it accepts and refuses.
import { describe, expect, it } from 'vitest';
import { findJsonFault, JsonSyntaxError, parseJsonText } from '../../src/text/parse-json-text.js';

const SECRET = 'Zq7-secret-KEY-42';

function errorOf(text: string): JsonSyntaxError {
  try {
    parseJsonText(text);
  } catch (error) {
    return error as JsonSyntaxError;
  }
  throw new Error(`parsed: ${text}`);
}

/** Line and column (1-based) of a UTF-16 offset: the ground truth, from V8's position. */
function placeOf(text: string, offset: number): [number, number] {
  const lines = text.slice(0, offset).split('\n');
  return [lines.length, lines.at(-1)!.length + 1];
}

describe('a text that is not JSON', () => {
  const broken = [
    `root:*:19000:0:99999:7:::\n${SECRET}:x:1000:1000::/home:/bin/sh`,
    `{"key": "${SECRET}" x}`,
    `{"token": ${SECRET}}`,
    `{\n  "projects": [\n    {"token": "${SECRET}",}\n  ]\n}`,
    `{"a": "${SECRET}`,
    `["${SECRET}", 1,`,
    `{"a": "\u0001${SECRET}"}`,
    `"${SECRET}" "${SECRET}"`,
    `{"a": "\\x${SECRET}"}`,
    `{${SECRET}: 1}`,
    `\ufeff{"key": "${SECRET}"}`,
    `[${'['.repeat(20_000)}${SECRET}`,
  ];

  for (const text of broken)
    it(`says where, never what: ${JSON.stringify(text.slice(0, 40))}`, () => {
      const error = errorOf(text);
      expect(error).toBeInstanceOf(JsonSyntaxError);
      expect(error.cause).toBeUndefined();
      expect(error.message).toMatch(/^not valid JSON at line \d+, column \d+: /);
      expect(error.message).not.toContain(SECRET.slice(0, 4));
      expect(error.message).not.toContain('root');
      // V8 gives a position for most faults: the same place
      let v8: string | undefined;
      try {
        JSON.parse(text);
      } catch (e) {
        v8 = (e as Error).message;
      }
      const position = /at position (\d+)/.exec(v8 ?? '');
      if (position) expect([error.line, error.column]).toEqual(placeOf(text, Number(position[1])));
    });

  it('names the line and column of a fault on a later line', () => {
    // V8 places the fault at the first character that cannot continue `tru`: the line's end
    const error = errorOf('{\n  "a": 1,\n  "b": tru\n}');
    expect([error.line, error.column]).toEqual([3, 11]);
    expect(error.message).toBe('not valid JSON at line 3, column 11: true was expected');
    expect(errorOf('{\n  "a": x\n}').message).toBe(
      'not valid JSON at line 2, column 8: a value (an object, array, string, number, true, false or null) was expected',
    );
    expect(errorOf('').message).toBe(
      'not valid JSON at line 1, column 1: the text ends where a value was expected',
    );
  });
});

describe('the scanner', () => {
  it('agrees with JSON.parse on what is JSON', () => {
    const texts = [
      '{}',
      '[]',
      ' {"a": [1, -2.5e+3, true, false, null, "x\\u00e9\\n"], "b": {"c": []}} ',
      '"\\ud83d\\ude00"',
      '0',
      '{"a":1,}',
      '[1,]',
      '01',
      '1.',
      '-',
      '.5',
      '{"a" 1}',
      '{"a":1 "b":2}',
      'nul',
      '[1 2]',
      '{"a":}',
      '"\\u12"',
      '[',
      ']',
    ];
    for (const text of texts) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(findJsonFault(text) === undefined, text).toBe(valid);
    }
  });

  it('passes a parser that is not JSON.parse through, and its own errors other than syntax', () => {
    expect(
      parseJsonText('{"n": 12345678901234567890}', (t) => JSON.parse(t.replace(/(\d{16,})/, '"$1"'))),
    ).toEqual({
      n: '12345678901234567890',
    });
    expect(() =>
      parseJsonText('[]', () => {
        throw new RangeError('too deep');
      }),
    ).toThrow(RangeError);
  });
});
